import { queryOptions } from '@tanstack/react-query';
import { jsonApi } from '../../../lib/jsonapi/client';
import { apiReference, type ApiReference } from './api-reference-model';

/** The server's OpenAPI description, read with the session's bearer token, as the reference page shows it. */
export async function fetchApiReference(signal?: AbortSignal): Promise<ApiReference> {
  return apiReference(await jsonApi.request('/jsonapi/openapi.json', { signal }));
}

export const apiReferenceQuery = () =>
  queryOptions({
    queryKey: ['api-reference'] as const,
    queryFn: ({ signal }) => fetchApiReference(signal),
    staleTime: Infinity,
  });
