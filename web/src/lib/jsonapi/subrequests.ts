import { authorizedFetch, defaultAuthTransport, type AuthTransport } from '../http/authorized-fetch';
import { ApiError } from '../http/errors';
import { buildUrl } from './client';
import type { JsonApiDocument } from './deserialize';
import type { DrupalJsonApiParams } from './params';

/**
 * One read of a batch: a JSON:API path and the same query builder the page's own call uses. A read may wait for
 * others (`waitFor`) and carry, as a value of its params, a replacement token naming a value of their answers
 * (`{{user.body@$.data[0].id}}`, Drupal's syntax); the server puts the value in before it runs the read.
 */
export interface BatchRead {
  requestId: string;
  path: string;
  params?: DrupalJsonApiParams;
  waitFor?: string[];
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

/** The query builder percent-encodes a token's braces; the server looks for them as they are, as Drupal does. */
const ENCODED_TOKEN = /%7B%7B(.+?)%7D%7D/gi;
export const withRawTokens = (uri: string): string =>
  uri.replace(ENCODED_TOKEN, (_m, inner: string) => `{{${decodeURIComponent(inner)}}}`);

/** The batch's body: Drupal's Subrequests blueprint of the reads (the benchmark sends it too). */
export function batchBlueprint(reads: BatchRead[]) {
  return reads.map((r) => ({
    requestId: r.requestId,
    uri: withRawTokens(buildUrl(r.path, r.params)),
    action: 'view',
    ...(r.waitFor ? { waitFor: r.waitFor } : {}),
  }));
}

/**
 * POST /subrequests?_format=json (Drupal's Subrequests, reads only): several JSON:API reads in one request, each
 * run by the server as if called alone with our token. Returns each read's status and document by requestId;
 * the batch itself failing (401 after a refresh, 400, network) is thrown as usual.
 */
export async function batchRead(
  reads: BatchRead[],
  transport: AuthTransport = defaultAuthTransport,
  signal?: AbortSignal,
): Promise<Map<string, BatchAnswer>> {
  const blueprint = batchBlueprint(reads);
  const response = await authorizedFetch(
    '/subrequests?_format=json',
    {
      method: 'POST',
      signal,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(blueprint),
    },
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
