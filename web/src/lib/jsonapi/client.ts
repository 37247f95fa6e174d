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

/** A resource named in a relationship: `{ type: 'node--season', id }`. */
export interface ResourceRef {
  type: string;
  id: string;
}

export const ref = (type: string, id: string): ResourceRef => ({ type, id });

/** Relationships of a write: each field names one resource, several, or none (null). */
export type RelationshipValues = Record<string, ResourceRef | ResourceRef[] | null>;

/** A resource's address from its type: `node--apc_form_5` (and an id) -> `/jsonapi/node/apc_form_5[/id]`. */
export function resourcePath(type: string, id?: string): string {
  const [entityType, bundle] = type.split('--');
  const path = `/jsonapi/${entityType}/${bundle}`;
  return id ? `${path}/${encodeURIComponent(id)}` : path;
}

export interface WriteOptions {
  relationships?: RelationshipValues;
  /** The `changed` the editor read: the server refuses the write (409) if the resource changed since. */
  changed?: unknown;
}

/** The document of a write: `{ data: { type, id?, attributes, relationships?, meta.changed? } }`. */
export function writeDocument(
  type: string,
  attributes: Record<string, unknown>,
  options: WriteOptions & { id?: string } = {},
) {
  const { id, relationships, changed } = options;
  return {
    data: {
      type,
      ...(id ? { id } : {}),
      attributes,
      ...(relationships
        ? { relationships: Object.fromEntries(Object.entries(relationships).map(([k, data]) => [k, { data }])) }
        : {}),
      ...(changed ? { meta: { changed } } : {}),
    },
  };
}

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

  /** The one resource a write answers with, deserialized (the server reads back every write it makes). */
  async function written<T extends Entity>(doc: JsonApiDocument | null): Promise<T> {
    const data = doc ? deserialize<T>(doc) : null;
    if (!data || Array.isArray(data)) throw new ApiError(500);
    return data;
  }

  return {
    request,
    /** POST a new resource of `type`; returns it as the server wrote it. */
    async create<T extends Entity = Entity>(
      type: string,
      attributes: Record<string, unknown>,
      relationships?: RelationshipValues,
    ): Promise<T> {
      const body = writeDocument(type, attributes, { relationships });
      return written<T>(await request(resourcePath(type), { method: 'POST', body }));
    },
    /** PATCH the given fields of a resource (guarded by `changed` when given); returns it as the server wrote it. */
    async update<T extends Entity = Entity>(
      type: string,
      id: string,
      attributes: Record<string, unknown>,
      options: WriteOptions = {},
    ): Promise<T> {
      const body = writeDocument(type, attributes, { ...options, id });
      return written<T>(await request(resourcePath(type, id), { method: 'PATCH', body }));
    },
    /** POST to a to-many relationship: adds `refs` to the resource's `field`. */
    async relate(type: string, id: string, field: string, refs: ResourceRef[]): Promise<void> {
      await request(`${resourcePath(type, id)}/relationships/${field}`, { method: 'POST', body: { data: refs } });
    },
    /** DELETE a resource. */
    async remove(type: string, id: string): Promise<void> {
      await request(resourcePath(type, id), { method: 'DELETE' });
    },
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
