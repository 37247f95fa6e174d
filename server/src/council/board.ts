import {
  apiAttributesOf,
  BOARD_PAGE_SIZE,
  BOARD_STATUSES,
  boardQuery,
  noQuery,
  type Board,
  type BoardMeta,
  type BoardRow,
  type BoardStatus,
} from '@pecan/contract';
import type { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Row } from '../jsonapi/resource.js';
import { fold } from '../jsonapi/fold.js';
import { notFound } from '../lib/errors.js';
import { keptStaleForm1OfPeriod, staleForm1OfMonth } from '../workflows/stale-year-to-date.js';
import { VERSIONED_FORMS } from '../workflows/versioned-forms.js';
import {
  checkedQuery,
  existingId,
  handlerParam,
  invalidParameters,
  MAX_ID_LENGTH,
  pathParam,
  queryOf,
  sendCsv,
  toCsv,
  todayIn,
  type Checked,
} from './http.js';
import { portalDb } from '../db/portal-tables.js';

/**
 * The submissions board: every active handler against forms 1, 2 and 3 of a month (or form 5 of a season), one
 * row per handler and form, with where the filing stands. And a filing's versions side by side.
 */

interface Version {
  id: string;
  handler_id: string;
  form_status: string;
  amendment_number: number;
  amendment_reason?: string | null;
  certification_datetime: string | null;
  created: string;
  changed: string;
}

/** Where one handler's filing of one form stands, from its versions (oldest first). */
export function filingStatus(
  versions: Version[],
  dueDate: string,
  today: string,
): Pick<
  BoardRow,
  | 'status'
  | 'current_version_id'
  | 'certified_version_id'
  | 'certified_at'
  | 'amendments'
  | 'amendment_in_progress'
  | 'amendment_reason'
> {
  const current = versions.at(-1) ?? null;
  const certified = versions.findLast((v) => v.form_status === 'certified') ?? null;
  let status: BoardStatus;
  if (certified) status = certified.amendment_number > 0 ? 'amended' : 'certified';
  else if (today > dueDate) status = 'overdue';
  // A draft nobody has saved yet (opening the month made it) is not started.
  else if (!current || (versions.length === 1 && current.changed === current.created)) status = 'not_started';
  else status = 'draft';
  return {
    status,
    current_version_id: current?.id ?? null,
    certified_version_id: certified?.id ?? null,
    certified_at: certified?.certification_datetime ?? null,
    amendments: versions.filter((v) => v.amendment_number > 0).length,
    amendment_in_progress: current !== null && current.form_status === 'draft' && current.amendment_number > 0,
    // Staff see at a glance why a filing changed: the latest amendment's reason (on its version and PDF too).
    amendment_reason: versions.findLast((v) => v.amendment_number > 0)?.amendment_reason ?? null,
  };
}

/** The board of a period (forms 1-3) or a season (form 5), filtered by status and handler. */
export async function buildBoard(
  ctx: AppContext,
  { value: q, problems }: Checked<z.output<typeof boardQuery>>,
): Promise<Board> {
  if (q.period_id === undefined && q.season_id === undefined)
    problems.push({
      field: 'period_id',
      detail: 'Give period_id (forms 1, 2 and 3 of a month) or season_id (form 5 of a season).',
    });
  if (q.period_id !== undefined && q.season_id !== undefined)
    problems.push({ field: 'season_id', detail: 'Give period_id or season_id, not both.' });
  const periodId = await existingId(ctx, 'reporting_periods', q.period_id, 'period_id', problems);
  const seasonId = await existingId(ctx, 'seasons', q.season_id, 'season_id', problems);
  const status = q.status;
  const handlerId = await handlerParam(ctx, q.handler, problems);
  if (problems.length > 0) throw invalidParameters(problems);

  const today = todayIn(ctx);
  let scope: Board['scope'];
  let dueDate: string;
  let forms: BoardRow['form'][];
  let column: 'period_id' | 'season_id';
  let scopeId: string;
  if (periodId) {
    const p = await portalDb(ctx.db)
      .selectFrom('reporting_periods')
      .selectAll()
      .where('id', '=', periodId)
      .executeTakeFirstOrThrow();
    scope = { kind: 'period', id: periodId, period_month: p.period_month, title: p.title };
    dueDate = p.due_date;
    forms = ['apc_form_1', 'apc_form_2', 'apc_form_3'];
    column = 'period_id';
    scopeId = periodId;
  } else {
    const s = await portalDb(ctx.db)
      .selectFrom('seasons')
      .selectAll()
      .where('id', '=', seasonId!)
      .executeTakeFirstOrThrow();
    scope = { kind: 'season', id: seasonId!, title: s.title };
    dueDate = s.reporting_due_date;
    forms = ['apc_form_5'];
    column = 'season_id';
    scopeId = seasonId!;
  }
  const handlers = await portalDb(ctx.db)
    .selectFrom('handlers')
    .select(['id', 'handler_number', 'title'])
    .where('handler_status', '=', 'active')
    .$if(handlerId !== undefined, (hq) => hq.where('id', '=', handlerId!))
    .orderBy('handler_number')
    .execute();

  const byForm = new Map<string, Map<string, Version[]>>();
  for (const form of forms) byForm.set(form, await versionsByHandler(ctx, form, column, scopeId));
  // Every filing's status, for the counts over the whole board; whole rows only for the lines of the page.
  const lines: Line[] = handlers.map((h) => ({
    handler: h,
    states: forms.map((form) => ({ form, ...filingStatus(byForm.get(form)!.get(h.id) ?? [], dueDate, today) })),
  }));
  const counts = Object.fromEntries(BOARD_STATUSES.map((s) => [s, 0])) as Record<BoardStatus, number>;
  for (const line of lines) for (const state of line.states) counts[state.status] += 1;

  const shown = matchingLines(lines, q.q, status);
  if (q.sort === '-handler_number') shown.reverse();
  const { meta, slice } = pageOf(shown.length, q.page, q.per_page);
  const page = shown.slice(slice.start, slice.end);
  const stale =
    scope.kind === 'period' && page.length > 0
      ? await staleOfPeriod(ctx, scope, handlerId)
      : new Map<string, BoardRow['stale_year_to_date']>();
  const data = page.flatMap((line) =>
    line.states.map(({ form, ...filing }): BoardRow => ({
      handler_id: line.handler.id,
      handler_number: line.handler.handler_number,
      handler_name: line.handler.title,
      form,
      due_date: dueDate,
      ...filing,
      stale_year_to_date: form === 'apc_form_1' ? (stale.get(line.handler.id) ?? null) : null,
    })),
  );
  return { scope, due_date: dueDate, forms, counts, data, meta };
}

/** One handler with where each of its filings stands (the board's line; with `status`, only those of it). */
interface Line {
  handler: { id: string; handler_number: string; title: string };
  states: Array<ReturnType<typeof filingStatus> & { form: BoardRow['form'] }>;
}

/** A scope's versions of one form by handler, oldest first (only the columns filingStatus reads). */
async function versionsByHandler(
  ctx: AppContext,
  form: BoardRow['form'],
  column: 'period_id' | 'season_id',
  scopeId: string,
): Promise<Map<string, Version[]>> {
  const versions = (await portalDb(ctx.db)
    .selectFrom(form)
    .select([
      'id',
      'handler_id',
      'form_status',
      'amendment_number',
      'amendment_reason',
      'certification_datetime',
      'created',
      'changed',
    ])
    .where(column, '=', scopeId)
    .orderBy('handler_id')
    .orderBy('amendment_number')
    .execute()) as Version[];
  const map = new Map<string, Version[]>();
  for (const v of versions) {
    v.amendment_number = Number(v.amendment_number);
    const list = map.get(v.handler_id);
    if (list) list.push(v);
    else map.set(v.handler_id, [v]);
  }
  return map;
}

/**
 * The lines whose handler number or name holds `search` (folded as the JSON:API's CONTAINS folds, so "epi" finds
 * "Épi"), each with only its filings of `status`; a line left without one is not shown.
 */
function matchingLines(lines: Line[], search: string | undefined, status: BoardStatus | undefined): Line[] {
  const needle = search === undefined ? '' : fold(search.trim());
  const found = needle
    ? lines.filter((l) => fold(l.handler.handler_number).includes(needle) || fold(l.handler.title).includes(needle))
    : [...lines];
  if (!status) return found;
  return found
    .map((l) => ({ ...l, states: l.states.filter((s) => s.status === status) }))
    .filter((l) => l.states.length > 0);
}

/** The board's page: every line unless `page` or `per_page` is given. */
function pageOf(
  total: number,
  page: number | undefined,
  perPage: number | undefined,
): { meta: BoardMeta; slice: { start: number; end: number } } {
  if (page === undefined && perPage === undefined)
    return { meta: { total_handlers: total, page: 1, per_page: null, pages: 1 }, slice: { start: 0, end: total } };
  const size = perPage ?? BOARD_PAGE_SIZE;
  const at = page ?? 1;
  return {
    meta: { total_handlers: total, page: at, per_page: size, pages: Math.max(1, Math.ceil(total / size)) },
    slice: { start: (at - 1) * size, end: at * size },
  };
}

/**
 * The stale figures of a month's certified forms 1 by handler: kept at each certification (the `stale-kept`
 * mechanism), or computed now with the mechanism off.
 */
async function staleOfPeriod(
  ctx: AppContext,
  scope: Extract<Board['scope'], { kind: 'period' }>,
  handlerId: string | undefined,
): Promise<Map<string, BoardRow['stale_year_to_date']>> {
  if (ctx.config.mechanisms['stale-kept']) return keptStaleForm1OfPeriod(portalDb(ctx.db), scope.id, handlerId);
  const stale = await staleForm1OfMonth(portalDb(ctx.db), scope.period_month, handlerId);
  return new Map([...stale].map(([handler, month]) => [handler, month.figures]));
}

const BOARD_COLUMNS = [
  'handler_number',
  'handler_name',
  'form',
  'status',
  'due_date',
  'current_version_id',
  'certified_version_id',
  'certified_at',
  'amendments',
  'amendment_in_progress',
  'amendment_reason',
] as const;

const VERSIONED = ['apc_form_1', 'apc_form_2', 'apc_form_3', 'apc_form_5'] as const;

/** Two attribute values are the same when their JSON is (lists of rows compare by content). */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function registerBoardRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/board', async (request) => {
    return buildBoard(ctx, queryOf(request, boardQuery));
  });

  app.get('/board.csv', async (request, reply) => {
    const board = await buildBoard(ctx, queryOf(request, boardQuery));
    const csv = toCsv(
      [...BOARD_COLUMNS],
      board.data.map((r) =>
        BOARD_COLUMNS.map((c) => {
          const v = r[c];
          return typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;
        }),
      ),
    );
    const name = board.scope.kind === 'period' ? board.scope.period_month : board.scope.title;
    return sendCsv(reply, `submissions-${name.replace(/[^A-Za-z0-9-]/g, '_')}.csv`, csv);
  });

  /** Every version of the filing that version :id belongs to, oldest first, with what changed from one to the next. */
  app.get('/filings/:bundle/:id/versions', async (request) => {
    checkedQuery(request, noQuery);
    const bundle = pathParam(request, 'bundle');
    const id = pathParam(request);
    if (!(VERSIONED as readonly string[]).includes(bundle))
      throw notFound(`Filings are apc_form_1, apc_form_2, apc_form_3 or apc_form_5; there is no ${bundle}.`);
    const form = VERSIONED_FORMS[bundle as (typeof VERSIONED)[number]];
    const one =
      id.length > MAX_ID_LENGTH
        ? undefined
        : await portalDb(ctx.db).selectFrom(form.bundle).selectAll().where('id', '=', id).executeTakeFirst();
    if (!one) throw notFound(`There is no ${bundle} with this id.`);
    let q = portalDb(ctx.db).selectFrom(form.bundle).selectAll();
    for (const c of form.scopeColumns) q = q.where(c, '=', (one as Row)[c] as string);
    const rows = (await q.orderBy('amendment_number').execute()) as Row[];
    const handler = await portalDb(ctx.db)
      .selectFrom('handlers')
      .select(['id', 'handler_number', 'title'])
      .where('id', '=', String(one.handler_id))
      .executeTakeFirst();
    let previous: Record<string, unknown> | null = null;
    const versions = rows.map((r) => {
      const attributes = apiAttributesOf(form.bundle, r);
      const changedFields =
        previous === null ? [] : Object.keys(attributes).filter((k) => !same(attributes[k], previous![k]));
      previous = attributes;
      return {
        id: String(r.id),
        type: `node--${form.bundle}`,
        title: String(r.title),
        amendment_number: Number(r.amendment_number),
        form_status: String(r.form_status),
        certified_at: (r.certification_datetime as string | null) ?? null,
        certification_name: (r.certification_name as string | null) ?? null,
        amendment_reason: (r.amendment_reason as string | null) ?? null,
        created: String(r.created),
        changed: String(r.changed),
        attributes,
        changed_fields: changedFields,
      };
    });
    return {
      bundle: form.bundle,
      handler: handler ? { id: handler.id, handler_number: handler.handler_number, name: handler.title } : null,
      scope: Object.fromEntries(form.scopeColumns.map((c) => [c, (one as Row)[c]])),
      versions,
    };
  });
}
