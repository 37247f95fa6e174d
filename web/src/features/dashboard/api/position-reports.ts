import { useQuery } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { deserialize, type Entity, type JsonApiDocument } from '../../../lib/jsonapi/deserialize';

/** The newest monthly position report published to the portal, with its period and PDF. */
export function newestReportParams() {
  return new DrupalJsonApiParams()
    .addFilter('field_publish_to_portal', '1')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(['field_reporting_period', 'field_position_report_pdf'])
    .addPageLimit(1);
}

export const newestReportKey = ['monthly-position-reports', 'newest'] as const;

/** The first report of a collection document's list, or null (none published yet). */
export function firstReport(doc: JsonApiDocument | null): Entity | null {
  const list = doc ? deserialize(doc) : null;
  return Array.isArray(list) && list.length ? list[0] : null;
}

export function useNewestPositionReport() {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: newestReportKey,
    queryFn: async ({ signal }) => {
      return firstReport(await jsonApi.request('/jsonapi/node/monthly_position_report', { params: newestReportParams(), signal }));
    },
  });
}
