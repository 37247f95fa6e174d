import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiAttributesOf, type FieldDef } from '@pecan/contract';
import type { AppContext } from '../context.js';
import { Compiler } from '../jsonapi/compile.js';
import { readItem } from '../jsonapi/read.js';
import { Registry } from '../jsonapi/registry.js';
import type { Row, WriteContext } from '../jsonapi/resource.js';
import { decodeWrite } from '../jsonapi/write.js';
import { authenticate } from '../oauth/bearer.js';
import { DRAIN_BYTES } from '../plugins/body.js';
import { ApiError } from '../lib/errors.js';
import { allResources } from '../resources/index.js';
import type { Viewer } from '../context.js';
import type { Db } from '../db/database.js';
import { IMPORT_BUNDLES, layoutOf, MAX_UPLOAD_BYTES, type ImportBundle } from './layout.js';
import { FileProblem, kindOf, readCsv, readXlsx, type Grid } from './read-file.js';
import { templateCsv, templateFileName, templateXlsx, type TemplateTarget } from './template.js';
import { parseImport, type ParsedImport } from './validate.js';

/**
 * Import of a monthly form from the handler's own spreadsheet (decision 0013), beside the form's own resource:
 *
 *   GET  /api/forms/{bundle}/{id}/import/template.xlsx | template.csv   the template for that form's handler and month
 *   POST /api/forms/{bundle}/{id}/import?name=file.xlsx                 checks the file: errors and preview, saves
 * nothing   POST /api/forms/{bundle}/{id}/import/apply?name=...&changed=...     checks the same file again and saves
 * the draft
 *
 * Apply saves through the form's own write handlers (the write policy's guard, then the draft workflow), in one
 * transaction: the form's fields, then for forms 2 and 3 its rows replaced by the file's. A certified form is not
 * changed: its amendment (started on the form page) is the draft an import fills.
 */
interface Params {
  bundle: string;
  id: string;
}
interface Query {
  name?: string;
  changed?: string;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function problemError(p: FileProblem): ApiError {
  return new ApiError(p.status, p.message, { meta: { code: p.code, params: p.params } });
}

export async function registerFormImportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const registry = new Registry(allResources);

  const bundleOf = (value: string): ImportBundle => {
    if (!(IMPORT_BUNDLES as readonly string[]).includes(value))
      throw new ApiError(404, 'Forms 1, 2 and 3 can be imported from a spreadsheet.');
    return value as ImportBundle;
  };

  /** The form as its reader sees it (404 or 403 otherwise), with its month and handler. */
  const loadForm = async (db: Db, viewer: Viewer, bundle: ImportBundle, id: string) => {
    const compiler = new Compiler(registry, viewer, ctx.dialect, ctx.config.mechanisms['shape-cache']);
    const def = registry.get(`node--${bundle}`);
    const loaded = await readItem(db, compiler, def, id);
    if (!loaded.full) throw new ApiError(403, 'You can only import into forms of your own company.');
    const row = loaded.row;
    const period = await db
      .selectFrom('reporting_periods')
      .select('period_month')
      .where('id', '=', String(row.period_id))
      .executeTakeFirstOrThrow();
    const handler = await db
      .selectFrom('handlers')
      .select('title')
      .where('id', '=', String(row.handler_id))
      .executeTakeFirstOrThrow();
    const target: TemplateTarget = {
      bundle,
      month: String(period.period_month),
      handlerId: String(row.handler_id),
      handlerName: String(handler.title),
    };
    return { row, def, compiler, target };
  };

  app.get<{ Params: Params & { extension: string } }>(
    '/api/forms/:bundle/:id/import/template.:extension',
    async (request, reply) => {
      const viewer = await authenticate(ctx, request);
      const bundle = bundleOf(request.params.bundle);
      const extension = request.params.extension;
      if (extension !== 'xlsx' && extension !== 'csv')
        throw new ApiError(404, 'The template is a .xlsx or a .csv file.');
      const { target } = await loadForm(ctx.db, viewer, bundle, request.params.id);
      const content = extension === 'xlsx' ? await templateXlsx(target) : Buffer.from(templateCsv(target), 'utf8');
      return reply
        .type(extension === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${templateFileName(target, extension)}"`)
        .send(content);
    },
  );

  /** The upload read whole (up to the cap) whatever its media type: the file's kind is judged by its name and bytes. */
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', (request, payload, done) => {
      const declared = Number(request.headers['content-length'] ?? 0);
      const tooLarge = () =>
        new ApiError(413, `The file is larger than ${MAX_UPLOAD_BYTES / 1048576} MiB.`, {
          meta: { code: 'too_large_upload', params: { maxMiB: MAX_UPLOAD_BYTES / 1048576 } },
        });
      const chunks: Buffer[] = [];
      let size = 0;
      let failed = false;
      const fail = (error: ApiError) => {
        failed = true;
        chunks.length = 0;
        done(error, undefined);
      };
      if (declared > MAX_UPLOAD_BYTES) fail(tooLarge());
      payload.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (failed) {
          if (size > DRAIN_BYTES) request.raw.socket.destroy();
          return;
        }
        if (size > MAX_UPLOAD_BYTES) fail(tooLarge());
        else chunks.push(chunk);
      });
      payload.on('end', () => {
        if (!failed) done(null, Buffer.concat(chunks));
      });
      payload.on('error', (error) => {
        if (!failed) {
          failed = true;
          done(error, undefined);
        }
      });
    });

    const readUpload = async (
      request: FastifyRequest<{ Params: Params; Querystring: Query }>,
    ): Promise<{ grid: Grid; name: string }> => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new ApiError(400, 'Send the file as the body of the request.', { meta: { code: 'empty', params: {} } });
      const name = String(request.query.name ?? '');
      try {
        const kind = kindOf(name, body);
        return { grid: kind === 'xlsx' ? await readXlsx(body) : readCsv(body), name };
      } catch (error) {
        if (error instanceof FileProblem) throw problemError(error);
        throw error;
      }
    };

    const parse = (grid: Grid, target: TemplateTarget): ParsedImport => {
      try {
        return parseImport(grid, target);
      } catch (error) {
        if (error instanceof FileProblem) throw problemError(error);
        throw error;
      }
    };

    scope.post<{ Params: Params; Querystring: Query }>(
      '/api/forms/:bundle/:id/import',
      { bodyLimit: DRAIN_BYTES },
      async (request, reply) => {
        const viewer = await authenticate(ctx, request);
        const bundle = bundleOf(request.params.bundle);
        const { row, target } = await loadForm(ctx.db, viewer, bundle, request.params.id);
        const { grid, name } = await readUpload(request);
        const parsed = parse(grid, target);
        const blocked = await notApplicable(ctx.db, bundle, row);
        return reply
          .type('application/json')
          .send({ data: { name, ...(await preview(ctx.db, bundle, row, parsed)), ...(blocked ? { blocked } : {}) } });
      },
    );

    scope.post<{ Params: Params; Querystring: Query }>(
      '/api/forms/:bundle/:id/import/apply',
      { bodyLimit: DRAIN_BYTES },
      async (request, reply) => {
        const viewer = await authenticate(ctx, request);
        const bundle = bundleOf(request.params.bundle);
        const { grid, name } = await readUpload(request);
        const result = await ctx.db.transaction().execute(async (trx) => {
          const { row, def, compiler, target } = await loadForm(trx, viewer, bundle, request.params.id);
          const parsed = parse(grid, target);
          if (parsed.errors.length > 0) {
            throw ApiError.many(
              422,
              parsed.errors.map((e) => ({ detail: `Row ${e.row}, column ${e.column}: ${e.detail}`, meta: { ...e } })),
            );
          }
          const blocked = await notApplicable(trx, bundle, row);
          if (blocked) throw new ApiError(409, blocked.detail, { meta: { code: blocked.code, params: {} } });
          const w: WriteContext = { ctx: { ...ctx, db: trx }, viewer, db: trx, def };
          const changed =
            typeof request.query.changed === 'string' && request.query.changed
              ? { changed: request.query.changed }
              : {};
          const input = decodeWrite(
            { type: def.type, id: row.id, attributes: parsed.attributes, meta: changed },
            def,
            ctx.dialect,
          );
          await def.writes!.update!(w, row, input);
          const table = layoutOf(bundle).list.target;
          if (table !== 'receipts_by_variety') {
            const subDef = registry.get(`node--${table}`);
            const sw: WriteContext = { ...w, def: subDef };
            const existing = await trx.selectFrom(table).select('id').where('form_id', '=', String(row.id)).execute();
            for (const { id } of existing)
              await subDef.writes!.delete!(sw, (await readItem(trx, compiler, subDef, String(id))).row);
            for (const [position, attributes] of parsed.rows.entries()) {
              const kept = Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== null));
              const subInput = decodeWrite(
                {
                  type: subDef.type,
                  attributes: { ...kept, field_position: position },
                  relationships: { field_form: { data: { type: def.type, id: row.id } } },
                },
                subDef,
                ctx.dialect,
              );
              await subDef.writes!.create!(sw, subInput, undefined);
            }
          }
          const saved = (await readItem(trx, compiler, def, String(row.id))).row;
          return preview(trx, bundle, saved, parsed);
        });
        return reply.type('application/json').send({ data: { name, applied: true, ...result } });
      },
    );
  });
}

/** Why an import cannot be applied to this version: it is not the current one, or no longer a draft. */
async function notApplicable(db: Db, bundle: ImportBundle, row: Row): Promise<{ code: string; detail: string } | null> {
  const later = await db
    .selectFrom(bundle)
    .select('id')
    .where('package_id', '=', String(row.package_id))
    .where('amendment_number', '>', Number(row.amendment_number))
    .executeTakeFirst();
  if (later)
    return { code: 'not_current', detail: 'A later version of this form exists: import into the current version.' };
  if (row.form_status !== 'draft') {
    return {
      code: 'certified',
      detail:
        'This form is certified and is not overwritten: amend it first (Amend on the form page), then import into the amendment.',
    };
  }
  return null;
}

interface Figure {
  field: string;
  unit?: string;
  kind: FieldDef['kind'];
  imported: unknown;
  current: unknown;
}

const sumOf = (rows: ReadonlyArray<Record<string, unknown>>, key: string): number =>
  rows.reduce((s, r) => s + (Number(r[key]) || 0), 0);

/** The file's figures and totals beside the form's current ones. */
async function preview(db: Db, bundle: ImportBundle, row: Row, parsed: ParsedImport) {
  const layout = layoutOf(bundle);
  const current = apiAttributesOf(bundle, row);
  const fields: Figure[] = layout.fields.map((f) => ({
    field: f.name,
    unit: f.unit,
    kind: f.kind,
    imported: parsed.attributes[`field_${f.name}`] ?? null,
    current: current[`field_${f.name}`] ?? null,
  }));
  const columns = layout.list.columns.map((c) => c.name);
  let importedRows: Array<Record<string, unknown>>;
  let currentRows: Array<Record<string, unknown>>;
  if (layout.list.target === 'receipts_by_variety') {
    importedRows = (parsed.attributes.field_receipts_by_variety as Array<Record<string, unknown>> | undefined) ?? [];
    currentRows = (current.field_receipts_by_variety as Array<Record<string, unknown>>) ?? [];
  } else {
    const table = layout.list.target;
    const strip = (attrs: Record<string, unknown>) =>
      Object.fromEntries(columns.map((c) => [c, attrs[`field_${c}`] ?? null]));
    importedRows = parsed.rows.map(strip);
    const stored = (await db
      .selectFrom(table)
      .selectAll()
      .where('form_id', '=', String(row.id))
      .orderBy('position')
      .execute()) as Row[];
    currentRows = stored.map((r) => strip(apiAttributesOf(table, r)));
  }
  const totals: Figure[] = [];
  const total = (field: string, unit: string, imported: number) =>
    totals.push({ field, unit, kind: 'pounds', imported, current: current[`field_${field}`] ?? 0 });
  if (bundle === 'apc_form_1') {
    const improved = sumOf(importedRows, 'pounds');
    total('receipts_improved', 'lb inshell', improved);
    total(
      'receipts_total',
      'lb inshell',
      improved +
        (Number(parsed.attributes.field_receipts_native) || 0) +
        (Number(parsed.attributes.field_receipts_substandard) || 0),
    );
  } else if (bundle === 'apc_form_2') {
    total('purchased_inshell_total', 'lb inshell', sumOf(importedRows, 'inshell_lb'));
    total('purchased_shelled_total', 'lb shelled', sumOf(importedRows, 'shelled_lb'));
  } else {
    total('total_inshell_lb', 'lb inshell', sumOf(importedRows, 'inshell_lb'));
    total('total_shelled_lb', 'lb shelled', sumOf(importedRows, 'shelled_lb'));
    total('total_substandard_lb', 'lb inshell', sumOf(importedRows, 'substandard_lb'));
  }
  return {
    valid: parsed.errors.length === 0,
    errors: parsed.errors,
    changed: String(row.changed),
    status: String(row.form_status),
    fields,
    list: { target: layout.list.target, columns, imported: importedRows, current: currentRows },
    totals,
  };
}
