import { useQuery } from '@tanstack/react-query';
import { jsonApi } from '../../../lib/jsonapi/client';
import { deserialize, type Entity, type JsonApiDocument } from '../../../lib/jsonapi/deserialize';
import { newestReportParams } from './position-report-params';

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
