import { useQuery } from '@tanstack/react-query';
import { jsonApi } from '../../../lib/jsonapi/client';
import { firstOf } from '../../../lib/jsonapi/deserialize';
import { newestReportParams } from './position-report-params';

export const newestReportKey = ['monthly-position-reports', 'newest'] as const;

export function useNewestPositionReport() {
  return useQuery({
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
    queryKey: newestReportKey,
    queryFn: async ({ signal }) => {
      return firstOf(await jsonApi.request('/jsonapi/node/monthly_position_report', { params: newestReportParams(), signal }));
    },
  });
}
