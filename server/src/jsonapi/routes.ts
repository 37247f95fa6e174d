import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, Viewer } from '../context.js';
import { fileLinkSigner, readerLinkExpiry } from '../files/signing.js';
import { authenticate, authenticateSession, type Session } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { Compiler } from './compile.js';
import { buildDocument, JSONAPI, pageLinks, type DocumentContext } from './document.js';
import { cachedReads } from './document-cache.js';
import { parseQueryString, type Query } from './query-params.js';
import { checkFields, loadRelated, readCollection, readItem, type Loaded, type ReadResult } from './read.js';
import type { Registry } from './registry.js';
import { openApiDocument } from './openapi.js';
import { shows, type ResourceDef, type Visibility, type WriteContext } from './resource.js';
import { decodeWrite, relationshipIds, resourceData } from './write.js';
import { sql } from 'kysely';
import { own } from './limits.js';
import { PerUserTurns, READS_RUNNING_PER_USER, READS_WAITING_PER_USER } from './fair-share.js';
import { isCostly } from './read-cost.js';
import type { Db } from '../db/database.js';

const MEDIA_TYPE = 'application/vnd.api+json';

interface Params {
  entity: string;
  bundle: string;
  id?: string;
  field?: string;
}

/**
 * The JSON:API routes. Every request: bearer check -> parse query -> compile to SQL with the reader's access rule
 * -> a fixed number of queries -> document. Every write: bearer check -> decode and validate -> the type's write
 * handler in one transaction -> the written resource read back as the reader sees it.
 */
/** The generic JSON:API routes over the resource types of `registry` (the server's: resources/index.ts). */
export async function registerJsonApiRoutes(app: FastifyInstance, ctx: AppContext, registry: Registry): Promise<void> {
  const typeOf = (type: string) => registry.get(type);

  const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  /** What a read or a write needs once the reader is known: the query parsed and checked, the document's context. */
  const begin = (
    request: FastifyRequest,
    session: Session,
    linksExpire = readerLinkExpiry(ctx, session.viewer.userId, ctx.clock.now()),
  ) => {
    const viewer = session.viewer;
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const query = parseQueryString(search);
    checkFields(registry, query);
    const baseUrl = baseUrlOf(request);
    // One expiry for the whole document, the one the document cache keeps it by.
    const signLink = fileLinkSigner(ctx, linksExpire, session.familyId);
    const doc: DocumentContext = {
      baseUrl,
      query,
      computed: (def, row) => def.computeAttributes?.(row, { baseUrl, signLink }) ?? {},
    };
    return {
      viewer,
      query,
      doc,
      compiler: new Compiler(registry, viewer, ctx.dialect, ctx.config.mechanisms['shape-cache']),
      selfUrl: `${baseUrl}${request.url}`,
      db: ctx.db,
    };
  };
  type Started = ReturnType<typeof begin>;
  const start = async (request: FastifyRequest) => begin(request, await authenticateSession(ctx, request, true));

  /**
   * A read: the document kept from an earlier read of the same address by the same user when nothing it shows has
   * changed since (jsonapi/document-cache.ts), built otherwise. A kept address is not parsed again: it was parsed
   * and checked when its document was built, and what it is checked against does not change while the server runs.
   */
  const cachedRead = cachedReads(app, ctx);
  // A document built takes turns with the same user's others (jsonapi/fair-share.ts); one sent again does not.
  const turns = new PerUserTurns(READS_RUNNING_PER_USER, READS_WAITING_PER_USER);
  const read = async (request: FastifyRequest, reply: FastifyReply, build: (started: Started) => Promise<unknown>) => {
    const session = await authenticateSession(ctx, request, true, besideWriter() ?? ctx.db);
    const linksExpire = readerLinkExpiry(ctx, session.viewer.userId, ctx.clock.now());
    const answer = await cachedRead(request, session, linksExpire, () =>
      turns.run(session.viewer.userId, async () => build(await costlyOnReaders(begin(request, session, linksExpire)))),
    );
    return send(reply.headers(answer.headers), 200, answer.body);
  };

  /**
   * A costly read (jsonapi/read-cost.ts) runs its statements where a few run at once under the time budget
   * (decision 0009): on SQLite reader threads instead of the event loop, on PostgreSQL a pool of their own. Every
   * other read on `ctx.db`, unless a write transaction holds it (besideWriter, below).
   */
  const costlyOnReaders = async (started: Started): Promise<Started> => {
    const beside = besideWriter();
    if (beside) return { ...started, db: beside };
    if (!ctx.costlyReads || !isCostly(started.query)) return started;
    // Parsing a large query and compiling it are each about a millisecond: let other requests in between.
    await new Promise((resolve) => setImmediate(resolve));
    return { ...started, db: ctx.costlyReads };
  };

  /**
   * The reader threads while a write transaction holds the server's SQLite connection (`reads-beside-writes`,
   * decision 0007): Kysely would run a read's statements after the transaction's end (a certification renders its
   * PDFs inside it), and the threads read the last committed data meanwhile, which is all a read sees anyway (its
   * statements are not one transaction). Asked when the token is checked and again when the read's statements start
   * (it may have waited for its turn meanwhile). Undefined otherwise: the read stays on `ctx.db`.
   */
  const besideWriter = (): Db | undefined => (ctx.writerBusy?.() ? ctx.costlyReads : undefined);

  // A body on the JSON:API is a JSON:API document: any other media type (plain application/json, text/plain, form
  // encoding, which have parsers of their own for other routes) is a 415 before it is parsed, as Drupal answers it.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/jsonapi/') || request.method === 'GET' || request.method === 'HEAD') return done();
    const type = request.headers['content-type'];
    const hasBody =
      type !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0 ||
      request.headers['transfer-encoding'] !== undefined;
    if (hasBody && !/^application\/vnd\.api\+json\s*(;|$)/i.test(type ?? '')) {
      throw new ApiError(415, `Send the body as ${MEDIA_TYPE}.`);
    }
    done();
  });

  const send = (reply: FastifyReply, status: number, body: unknown) => reply.code(status).type(MEDIA_TYPE).send(body);

  const withRelated = async (
    db: Db,
    compiler: Compiler,
    def: ResourceDef,
    primary: Loaded[],
    query: Query,
    single: boolean,
    hasMore = false,
  ): Promise<ReadResult> => {
    const related = await loadRelated(db, compiler, registry, def, primary, query);
    return { primary, single, hasMore, ...related };
  };

  app.get('/jsonapi', async (request, reply) => {
    await authenticate(ctx, request, true);
    const base = baseUrlOf(request);
    const links = Object.fromEntries(
      registry.all().map((d) => [d.type, { href: `${base}/jsonapi/${d.entity}/${d.bundle}` }]),
    );
    return send(reply, 200, { jsonapi: JSONAPI, data: [], links: { self: { href: `${base}/jsonapi` }, ...links } });
  });

  // The machine-readable description (jsonapi/openapi.ts): built once from the registry, the same for everyone
  // signed in; it describes types, never data.
  const description = JSON.stringify(openApiDocument(registry));
  app.get('/jsonapi/openapi.json', async (request, reply) => {
    await authenticate(ctx, request);
    return reply.code(200).type('application/json; charset=utf-8').send(description);
  });

  app.get<{ Params: Params }>('/jsonapi/:entity/:bundle', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    return read(request, reply, async ({ query, doc, compiler, selfUrl, db }) => {
      const { rows, hasMore } = await readCollection(db, compiler, def, query);
      const result = await withRelated(db, compiler, def, rows, query, false, hasMore);
      return buildDocument(result, doc, selfUrl, typeOf, pageLinks(selfUrl, query, hasMore));
    });
  });

  app.get<{ Params: Params }>('/jsonapi/:entity/:bundle/:id', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    return read(request, reply, async ({ query, doc, compiler, selfUrl, db }) => {
      const item = await readItem(db, compiler, def, request.params.id!);
      return buildDocument(await withRelated(db, compiler, def, [item], query, true), doc, selfUrl, typeOf);
    });
  });

  /** /jsonapi/node/x/{id}/field: the related resource(s) themselves. */
  app.get<{ Params: Params }>('/jsonapi/:entity/:bundle/:id/:field', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const rel = relationshipOf(def, request.params.field!);
    return read(request, reply, async ({ query, doc, compiler, selfUrl, db }) => {
      const owner = await readItem(db, compiler, def, request.params.id!);
      assertRelationshipVisible(owner, rel.visibility, request.params.field!);
      const target = registry.get(rel.target);
      if (rel.kind === 'one') {
        const id = owner.row[rel.column];
        const item = id ? await readItem(db, compiler, target, String(id)).catch(() => null) : null;
        const result = await withRelated(db, compiler, target, item ? [item] : [], query, true);
        return buildDocument(result, doc, selfUrl, typeOf);
      }
      const { rows, hasMore } = await readCollection(
        db,
        compiler,
        target,
        query,
        (t) => sql`${sql.ref(`${t}.${rel.foreignColumn}`)} = ${owner.row.id}`,
      );
      const result = await withRelated(db, compiler, target, rows, query, false, hasMore);
      return buildDocument(result, doc, selfUrl, typeOf, pageLinks(selfUrl, query, hasMore));
    });
  });

  /** /jsonapi/node/x/{id}/relationships/field: the linkage only. */
  app.get<{ Params: Params }>('/jsonapi/:entity/:bundle/:id/relationships/:field', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const rel = relationshipOf(def, request.params.field!);
    return read(request, reply, async ({ query, doc, compiler, selfUrl, db }) => {
      const owner = await readItem(db, compiler, def, request.params.id!);
      assertRelationshipVisible(owner, rel.visibility, request.params.field!);
      const result = await withRelated(db, compiler, def, [owner], { ...query, include: [] }, true);
      const object = buildDocument(result, doc, selfUrl, typeOf).data as {
        relationships: Record<string, { data: unknown }>;
      };
      return {
        jsonapi: JSONAPI,
        data: object.relationships[request.params.field!].data,
        links: { self: { href: selfUrl } },
      };
    });
  });

  /** Runs a write handler in one transaction: all of its changes land, or none. */
  const write = async (viewer: Viewer, def: ResourceDef, run: (w: WriteContext) => Promise<string>) => {
    return ctx.db.transaction().execute(async (trx) => run({ ctx: { ...ctx, db: trx }, viewer, db: trx, def }));
  };

  /**
   * A write answered with the resource as the writer now reads it. The read-back runs inside the write's
   * transaction, before the commit: a write that leaves its writer unable to read what it wrote (the record moved to
   * another handler) is refused with that 403 and rolled back, never answered 403 after committing.
   */
  const writeAndReadBack = async (
    started: Started,
    reply: FastifyReply,
    def: ResourceDef,
    status: number,
    run: (w: WriteContext, compiler: Compiler) => Promise<string>,
  ) => {
    const { viewer, query, doc, compiler, selfUrl } = started;
    const { id, body } = await ctx.db.transaction().execute(async (trx) => {
      const writtenId = await run({ ctx: { ...ctx, db: trx }, viewer, db: trx, def }, compiler);
      const item = await readItem(trx, compiler, def, writtenId);
      const related = await loadRelated(trx, compiler, registry, def, [item], query);
      return {
        id: writtenId,
        body: buildDocument({ primary: [item], single: true, hasMore: false, ...related }, doc, selfUrl, typeOf),
      };
    });
    if (status === 201) reply.header('location', `${doc.baseUrl}/jsonapi/${def.entity}/${def.bundle}/${id}`);
    return send(reply, status, body);
  };

  app.post<{ Params: Params }>('/jsonapi/:entity/:bundle', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const started = await start(request);
    const create = def.writes?.create;
    if (!create) throw methodNotAllowed(def, 'POST');
    const data = resourceData(request.body, def);
    const input = decodeWrite(data, def, ctx.dialect);
    return writeAndReadBack(started, reply, def, 201, (w) => create(w, input, data.id as string | undefined));
  });

  app.patch<{ Params: Params }>('/jsonapi/:entity/:bundle/:id', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const started = await start(request);
    const update = def.writes?.update;
    if (!update) throw methodNotAllowed(def, 'PATCH');
    const data = resourceData(request.body, def, request.params.id);
    const input = decodeWrite(data, def, ctx.dialect);
    return writeAndReadBack(started, reply, def, 200, async (w, compiler) => {
      const row = await readItem(w.db, compiler, def, request.params.id!);
      await update(w, row.row, input);
      return request.params.id!;
    });
  });

  app.delete<{ Params: Params }>('/jsonapi/:entity/:bundle/:id', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const { viewer, compiler } = await start(request);
    const remove = def.writes?.delete;
    if (!remove) throw methodNotAllowed(def, 'DELETE');
    await write(viewer, def, async (w) => {
      const row = await readItem(w.db, compiler, def, request.params.id!);
      await remove(w, row.row);
      return request.params.id!;
    });
    return reply.code(204).send();
  });

  app.post<{ Params: Params }>('/jsonapi/:entity/:bundle/:id/relationships/:field', async (request, reply) => {
    const def = registry.byPath(request.params.entity, request.params.bundle);
    const rel = relationshipOf(def, request.params.field!);
    const { viewer, compiler } = await start(request);
    const add = def.writes?.addToRelationship;
    if (rel.kind !== 'many' || !add)
      throw new ApiError(405, `Nothing can be added to ${request.params.field} of ${def.type}.`, {}, { allow: 'GET' });
    const ids = relationshipIds(request.body, rel.target);
    await write(viewer, def, async (w) => {
      const row = await readItem(w.db, compiler, def, request.params.id!);
      await add(w, row.row, request.params.field!, ids);
      return request.params.id!;
    });
    return reply.code(204).send();
  });

  for (const method of ['PATCH', 'DELETE'] as const) {
    app.route<{ Params: Params }>({
      method,
      url: '/jsonapi/:entity/:bundle/:id/relationships/:field',
      handler: async (request) => {
        const def = registry.byPath(request.params.entity, request.params.bundle);
        relationshipOf(def, request.params.field!);
        await authenticate(ctx, request, true);
        throw new ApiError(
          405,
          `${request.params.field} of ${def.type} is changed through its own resource, not this relationship.`,
          {},
          { allow: 'GET, POST' },
        );
      },
    });
  }

  // Any other method on an API path: 405 with the methods that exist there, as Drupal answers (a collection takes
  // GET and POST, an item GET, PATCH and DELETE).
  const refuse = (allow: string) => async (request: FastifyRequest<{ Params: Params }>) => {
    registry.byPath(request.params.entity, request.params.bundle);
    throw new ApiError(
      405,
      `This address takes ${allow.replace(/, ([A-Z]+)$/, ' or $1')}, not ${request.method}.`,
      {},
      { allow },
    );
  };
  app.route<{ Params: Params }>({
    method: ['PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/jsonapi/:entity/:bundle',
    handler: refuse('GET, POST'),
  });
  app.route<{ Params: Params }>({
    method: ['POST', 'PUT', 'OPTIONS'],
    url: '/jsonapi/:entity/:bundle/:id',
    handler: refuse('GET, PATCH, DELETE'),
  });
}

function relationshipOf(def: ResourceDef, field: string) {
  const rel = own(def.relationships, field);
  if (!rel) throw new ApiError(404, `${def.type} has no relationship "${field}".`);
  return rel;
}

function assertRelationshipVisible(owner: Loaded, visibility: Visibility, field: string): void {
  if (!shows(visibility, owner))
    throw new ApiError(403, `You are not allowed to view ${field} of this ${owner.def.bundle}.`);
}

function methodNotAllowed(def: ResourceDef, method: string): ApiError {
  return new ApiError(405, `${def.type} cannot be changed with ${method}.`, {}, { allow: 'GET' });
}
