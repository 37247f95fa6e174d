import { authorizedFetch, defaultAuthTransport, type AuthTransport } from '../http/authorized-fetch';
import { ApiError } from '../http/errors';
import { buildUrl } from './client';
import type { JsonApiDocument } from './deserialize';
import type { DrupalJsonApiParams } from './params';

/** One read of a batch: a JSON:API path and the same query builder the page's own call uses. */
export interface BatchRead {
  requestId: string;
  path: string;
  params?: DrupalJsonApiParams;
}

/** One answer of a batch: the read's status and its document (null when the body was empty or not JSON). */
export interface BatchAnswer {
  status: number;
  doc: JsonApiDocument | null;
}

interface Subresponse {
  headers?: { status?: string[] };
  body?: string;
}

function parseBody(text: string | undefined): JsonApiDocument | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as JsonApiDocument;
  } catch {
    return null;
  }
}

/**
 * POST /subrequests?_format=json (Drupal's Subrequests, reads only): several JSON:API reads in one request, each
 * run by the server as if called alone with our token. Returns each read's status and document by requestId;
 * the batch itself failing (401 after a refresh, 400, network) is thrown as usual.
 */
export async function batchRead(reads: BatchRead[], transport: AuthTransport = defaultAuthTransport, signal?: AbortSignal): Promise<Map<string, BatchAnswer>> {
  const blueprint = reads.map((r) => ({ requestId: r.requestId, uri: buildUrl(r.path, r.params), action: 'view' }));
  const response = await authorizedFetch(
    '/subrequests?_format=json',
    { method: 'POST', signal, headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(blueprint) },
    transport,
  );
  const answer = (await response.json()) as Record<string, Subresponse>;
  const out = new Map<string, BatchAnswer>();
  for (const read of reads) {
    const entry = answer[read.requestId];
    if (!entry) throw new ApiError(502, [{ detail: `The batch did not answer "${read.requestId}".` }]);
    out.set(read.requestId, { status: Number(entry.headers?.status?.[0] ?? 0), doc: parseBody(entry.body) });
  }
  return out;
}
