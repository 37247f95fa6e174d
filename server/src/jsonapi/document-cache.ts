import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { LRUCache } from 'lru-cache';
import { bytesBoundedCache } from '../lib/lru.js';
import type { AppContext, Viewer } from '../context.js';
import type { Session } from '../oauth/bearer.js';

/**
 * The JSON:API documents a server process has built, kept to be sent again while nothing they show has changed:
 * Drupal's dynamic page cache, with the database's data version (db/data-version.ts) as its one cache tag.
 *
 * A kept document is sent again only when all of these are what they were when it was built, so it is exactly the
 * document a fresh build would write:
 * - the reader: their user, role and handler are part of the key, and the bearer check runs at every request before
 *   the lookup (an ended session or a blocked user is a 401 as always);
 * - the address: scheme, host, path and query string, as the document's links carry them;
 * - the data: the data version read by the bearer check's statement, which every committed write moves on;
 * - the file links' expiry (files/signing.ts): links are signed to a whole minute of the reader's own, so a document
 *   lives a minute at most, and the reader's documents go stale at a second of the minute that other readers' do not.
 * Nothing here is needed by another replica: each keeps its own, and the database tells every one of them when a
 * document has gone stale. Bounded in bytes; the least recently read go first.
 */
export interface KeptDocument {
  dataVersion: number;
  linksExpire: number;
  /**
   * The JSON text as UTF-8 bytes, encoded once when built: a string would be encoded again at every send, inside
   * the socket write (the 487 KB invoices page of 10 seasons: 1,265 hits a second kept as text, 3,350 as bytes).
   */
  body: Buffer;
  /**
   * The body as @fastify/compress compressed it, by what the client accepts (`encodingKey`): browsers send br, and
   * compressing a large document again costs more than building it from the cache.
   */
  encoded?: Map<string, EncodedBody>;
}

export interface EncodedBody {
  encoding: string;
  bytes: Buffer;
}

/** At most this many compressed forms of one document (clients differ little in what they accept). */
const MAX_ENCODINGS = 4;

/** The response header that says whether a read was served from the cache (as Drupal's X-Drupal-Dynamic-Cache). */
export const DOCUMENT_CACHE_HEADER = 'x-document-cache';

export class DocumentCache {
  private readonly kept: LRUCache<string, KeptDocument>;

  constructor(maxBytes: number) {
    this.kept = bytesBoundedCache(
      maxBytes,
      // Keys are short beside the documents.
      (key, doc: KeptDocument) =>
        doc.body.length + key.length + 64 + [...(doc.encoded?.values() ?? [])].reduce((n, e) => n + e.bytes.length, 0),
    );
  }

  /**
   * `session`: the sign-in the document's file links are bound to (files/signing.ts), so another session never gets
   * them.
   */
  static key(viewer: Viewer, selfUrl: string, session = ''): string {
    return `${viewer.userId}\n${viewer.role}\n${viewer.handlerId ?? ''}\n${session}\n${selfUrl}`;
  }

  /** What the compressed forms of a body are kept by: the request's Accept-Encoding, and whether it asked for none. */
  static encodingKey(headers: Record<string, string | string[] | undefined>): string {
    return `${String(headers['accept-encoding'] ?? '')}\n${headers['x-no-compression'] === undefined ? '' : 'none'}`;
  }

  /** The document kept under this key, if it was built at this data version and with links of this expiry. */
  get(key: string, dataVersion: number, linksExpire: number): KeptDocument | undefined {
    const doc = this.kept.get(key);
    return doc && doc.dataVersion === dataVersion && doc.linksExpire === linksExpire ? doc : undefined;
  }

  /** Adds a compressed form to a kept document, if it is still the one kept under the key. */
  keepEncoded(key: string, doc: KeptDocument, encodingKey: string, encoded: EncodedBody): void {
    if (this.kept.peek(key) !== doc) return;
    const forms = new Map(doc.encoded);
    if (forms.size >= MAX_ENCODINGS && !forms.has(encodingKey)) return;
    forms.set(encodingKey, encoded);
    // A new object: the cache counts an entry's size when it is set, and only when its value changes.
    this.kept.set(key, { ...doc, encoded: forms });
  }

  /** Keeps a body, unless a newer one (built at a later data version) is already kept under the key. */
  set(key: string, doc: KeptDocument): void {
    const current = this.kept.peek(key);
    if (current && current.dataVersion > doc.dataVersion) return;
    this.kept.set(key, doc);
  }

  get size(): number {
    return this.kept.size;
  }
}

/** What a read sends: the body (text, its UTF-8 bytes, or bytes already compressed) and the headers that go with it. */
export interface ReadAnswer {
  body: string | Buffer;
  headers: Record<string, string>;
}

/** Answers a read from the cache or from `build` (called only when nothing fit is kept). */
export type CachedRead = (
  request: FastifyRequest,
  session: Session,
  linksExpire: number,
  build: () => Promise<unknown>,
) => Promise<ReadAnswer>;

/**
 * The JSON:API's reads through a document cache of `DOCUMENT_CACHE_MB` (or straight to `build` when it is 0). Call it
 * before the GET routes are added: their compressed answers are kept by a hook it adds to each, after
 * @fastify/compress's own (whose plugin is registered first).
 */
export function cachedReads(app: FastifyInstance, ctx: AppContext): CachedRead {
  if (ctx.config.documentCacheBytes <= 0)
    return async (_request, _session, _linksExpire, build) => ({ body: JSON.stringify(await build()), headers: {} });
  const cache = new DocumentCache(ctx.config.documentCacheBytes);
  /** The kept document a read answered with, for `keepEncoded` to add the compressed form to. */
  const answeredWith = new WeakMap<FastifyRequest, { key: string; doc: KeptDocument }>();

  // With `done`, not async: it runs on every read, and a promise each cost a few per cent of a small one (app.ts).
  const keepEncoded: onSendHookHandler<unknown> = (request, reply, payload, done) => {
    const answered = answeredWith.get(request);
    const encoding = reply.getHeader('content-encoding');
    if (answered && typeof encoding === 'string' && encoding !== 'identity' && Buffer.isBuffer(payload)) {
      cache.keepEncoded(answered.key, answered.doc, DocumentCache.encodingKey(request.headers), {
        encoding,
        bytes: payload,
      });
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' && route.url.startsWith('/jsonapi/'))
      route.onSend = [...[route.onSend ?? []].flat(), keepEncoded];
  });

  return async (request, session, linksExpire, build): Promise<ReadAnswer> => {
    const key = DocumentCache.key(
      session.viewer,
      `${request.protocol}://${request.host}${request.url}`,
      session.familyId,
    );
    let doc = cache.get(key, session.dataVersion, linksExpire);
    const status = doc ? 'HIT' : 'MISS';
    if (!doc) {
      doc = { dataVersion: session.dataVersion, linksExpire, body: Buffer.from(JSON.stringify(await build())) };
      cache.set(key, doc);
    }
    const encoded = doc.encoded?.get(DocumentCache.encodingKey(request.headers));
    // Already compressed: @fastify/compress passes it on as it is.
    if (encoded)
      return {
        body: encoded.bytes,
        headers: { [DOCUMENT_CACHE_HEADER]: status, 'content-encoding': encoded.encoding, vary: 'accept-encoding' },
      };
    // Only an answer that may be compressed is worth a note for keepEncoded (a WeakMap entry is work for the GC).
    if (request.headers['accept-encoding']) answeredWith.set(request, { key, doc });
    return { body: doc.body, headers: { [DOCUMENT_CACHE_HEADER]: status } };
  };
}
