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
 * The `signin-batch` mechanism of the build (web/scripts/build-mechanisms.ts, put in by vite.config.ts's `define`):
 * false in a measurement build without it, where batchRead sends each read on its own.
 */
declare const __PORTAL_SIGNIN_BATCH__: boolean | undefined;
const batching = typeof __PORTAL_SIGNIN_BATCH__ === 'undefined' || __PORTAL_SIGNIN_BATCH__;

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
  if (!batching) return readOneByOne(reads, transport, signal);
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

/** `{{id.body@$.a[0].b}}`: the value at that path of an earlier read's answer. */
const TOKEN = /\{\{([\w-]+)\.body@\$([^}]*)\}\}/g;

function valueAt(doc: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+/g) ?? [];
  return steps.reduce<unknown>((value, step) => (value as Record<string, unknown> | null)?.[step] ?? null, doc);
}

/**
 * The reads without a batch, as a build without the `signin-batch` mechanism makes them: one GET each, those that
 * wait for others once the others have answered (their tokens replaced here with the answers' values).
 */
async function readOneByOne(
  reads: BatchRead[],
  transport: AuthTransport,
  signal?: AbortSignal,
): Promise<Map<string, BatchAnswer>> {
  const out = new Map<string, BatchAnswer>();
  const read = async (r: BatchRead) => {
    const uri = withRawTokens(buildUrl(r.path, r.params)).replace(TOKEN, (_m, id: string, path: string) =>
      encodeURIComponent(String(valueAt(out.get(id)?.doc, path) ?? '')),
    );
    try {
      const response = await authorizedFetch(
        uri,
        { signal, headers: { Accept: 'application/vnd.api+json' } },
        transport,
      );
      out.set(r.requestId, { status: response.status, doc: parseBody(await response.text()) });
    } catch (error) {
      // A read that fails is that read's answer, as in a batch; an ended session or a network failure is thrown.
      if (!(error instanceof ApiError) || error.status === 401) throw error;
      out.set(r.requestId, { status: error.status, doc: null });
    }
  };
  await Promise.all(reads.filter((r) => !r.waitFor).map(read));
  await Promise.all(reads.filter((r) => r.waitFor).map(read));
  return out;
}
