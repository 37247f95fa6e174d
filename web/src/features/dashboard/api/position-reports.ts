import { queryOptions, useQuery } from '@tanstack/react-query';
import { jsonApi } from '../../../lib/jsonapi/client';
import { firstOf } from '../../../lib/jsonapi/deserialize';
import { newestReportKey } from '../../../lib/query-keys';
import type { ApiEntity } from '../../../lib/portal/entities';
import { newestReportParams } from '../../../lib/portal/position-report-params';

/** The newest monthly position report, under the key the sign-in's batch seeds (lib/query-keys.ts). */
export const newestReportQuery = () =>
  queryOptions({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: newestReportKey,
    queryFn: async ({ signal }) =>
      firstOf<ApiEntity<'node--monthly_position_report'>>(
        await jsonApi.request('/jsonapi/node/monthly_position_report', { params: newestReportParams(), signal }),
      ),
  });

export function useNewestPositionReport() {
  return useQuery(newestReportQuery());
}
