import { DrupalJsonApiParams } from './params';
import { ApiError } from '../http/errors';
import { authorizedFetch, defaultAuthTransport, type AuthTransport } from '../http/authorized-fetch';
import { deserialize, nextLink, type Entity, type JsonApiDocument } from './deserialize';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export interface JsonApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Query built with drupal-jsonapi-params (or a ready query string). */
  params?: DrupalJsonApiParams | string;
  body?: unknown;
  signal?: AbortSignal;
}

/** The JSON:API client calls through the same bearer-token fetch as the staff console. */
export type JsonApiTransport = AuthTransport;

export function buildUrl(path: string, params?: DrupalJsonApiParams | string): string {
  const query = typeof params === 'string' ? params : params?.getQueryString();
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/**
 * Calls the JSON:API with the bearer token. On 401 it refreshes the token once and retries once; a second 401
 * ends the session. Errors are thrown as ApiError with the parsed `errors[]`.
 */
export function createJsonApiClient(transport: JsonApiTransport = defaultAuthTransport) {
  async function request(path: string, req: JsonApiRequest = {}): Promise<JsonApiDocument | null> {
    const url = buildUrl(path, req.params);
    const response = await authorizedFetch(
      url,
      {
        method: req.method ?? 'GET',
        signal: req.signal,
        headers: {
          Accept: JSONAPI_MEDIA_TYPE,
          ...(req.body !== undefined ? { 'Content-Type': JSONAPI_MEDIA_TYPE } : {}),
        },
        body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      },
      transport,
    );
    if (response.status === 204) return null;
    const text = await response.text();
    return text ? (JSON.parse(text) as JsonApiDocument) : null;
  }

  return {
    request,
    /** GET one resource, deserialized. */
    async getOne<T extends Entity = Entity>(
      path: string,
      params?: DrupalJsonApiParams,
      signal?: AbortSignal,
    ): Promise<T> {
      const doc = await request(path, { params, signal });
      const data = doc ? deserialize<T>(doc) : null;
      if (!data || Array.isArray(data)) throw new ApiError(404);
      return data;
    },
    /** GET a collection, deserialized, following `links.next` until the last page. */
    async getAll<T extends Entity = Entity>(
      path: string,
      params?: DrupalJsonApiParams,
      signal?: AbortSignal,
    ): Promise<T[]> {
      const out: T[] = [];
      let doc = await request(path, { params, signal });
      for (let pages = 0; doc && pages < 100; pages++) {
        const data = deserialize<T>(doc);
        if (Array.isArray(data)) out.push(...data);
        const next = nextLink(doc);
        if (!next) break;
        const u = new URL(next, 'http://portal.invalid');
        doc = await request(u.pathname + u.search, { signal });
      }
      return out;
    },
  };
}

export type JsonApiClient = ReturnType<typeof createJsonApiClient>;

export const jsonApi = createJsonApiClient();

export { DrupalJsonApiParams };
