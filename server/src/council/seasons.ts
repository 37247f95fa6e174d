import { noQuery, periodDueDateBody, seasonBody, seasonDueDateBody, seasonQuery } from '@pecan/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import type { Row } from '../jsonapi/resource.js';
import { notFound } from '../lib/errors.js';
import { isTrue, updateRow, type Actor } from '../workflows/common.js';
import { createSeason, setCurrentSeason, setSeasonClosed } from '../workflows/seasons.js';
import {
  asStaff,
  bodyOf,
  checkedQuery,
  existingId,
  invalidParameters,
  MAX_ID_LENGTH,
  pathParam,
  queryOf,
} from './http.js';
import type { Season } from '@pecan/contract';
import { portalDb } from '../db/portal-tables.js';

/** Seasons (crop years) and the reporting calendar: create a season, choose the current one, move due dates. */

export const seasonOut = (r: Row): Season => ({
  id: String(r.id),
  title: String(r.title),
  start_date: String(r.season_start_date),
  end_date: String(r.season_end_date),
  reporting_due_date: String(r.reporting_due_date),
  current: isTrue(r.current_season),
  closed: isTrue(r.season_closed),
});

async function loadById(a: Actor | AppContext, table: string, id: string, what: string): Promise<Row> {
  const db = 'ctx' in a ? a.ctx.db : a.db;
  const row =
    id.length > MAX_ID_LENGTH
      ? undefined
      : await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`There is no ${what} with this id.`);
  return row as Row;
}

export function registerSeasonRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/seasons', async (request, reply) => {
    const { start_year } = bodyOf(request, seasonBody);
    const r = await asStaff(ctx, request, async (a) => {
      const { id, created } = await createSeason(a, start_year);
      return { created, season: seasonOut(await loadById(a, 'seasons', id, 'season')) };
    });
    return reply.code(r.created ? 201 : 200).send({ data: r.season });
  });

  app.get('/seasons', async (request) => {
    checkedQuery(request, noQuery);
    const rows = await portalDb(ctx.db)
      .selectFrom('seasons')
      .selectAll()
      .orderBy('season_start_date', 'desc')
      .execute();
    return { data: rows.map((r) => seasonOut(r as Row)) };
  });

  app.post('/seasons/:id/current', async (request) => {
    const id = pathParam(request);
    const season = await asStaff(ctx, request, async (a) => {
      await loadById(a, 'seasons', id, 'season');
      await setCurrentSeason(a, id);
      return seasonOut(await loadById(a, 'seasons', id, 'season'));
    });
    return { data: season };
  });

  // Close a season (its filings can no longer be amended) or reopen it; both leave an audit entry.
  for (const [verb, closed] of [
    ['close', true],
    ['reopen', false],
  ] as const) {
    app.post(`/seasons/:id/${verb}`, async (request) => {
      const id = pathParam(request);
      const season = await asStaff(ctx, request, async (a) => {
        await loadById(a, 'seasons', id, 'season');
        await setSeasonClosed(a, id, closed);
        return seasonOut(await loadById(a, 'seasons', id, 'season'));
      });
      return { data: season };
    });
  }

  app.patch('/seasons/:id', async (request) => {
    const id = pathParam(request);
    const { reporting_due_date } = bodyOf(request, seasonDueDateBody);
    const season = await asStaff(ctx, request, async (a) => {
      const row = await loadById(a, 'seasons', id, 'season');
      await updateRow(a, 'seasons', row, { reporting_due_date });
      return seasonOut(await loadById(a, 'seasons', id, 'season'));
    });
    return { data: season };
  });

  app.patch('/periods/:id', async (request) => {
    const id = pathParam(request);
    const { due_date } = bodyOf(request, periodDueDateBody);
    const period = await asStaff(ctx, request, async (a) => {
      const row = await loadById(a, 'reporting_periods', id, 'reporting period');
      await updateRow(a, 'reporting_periods', row, { due_date });
      return loadById(a, 'reporting_periods', id, 'reporting period');
    });
    return {
      data: {
        id: period.id,
        period_month: period.period_month,
        title: period.title,
        due_date: period.due_date,
        season_id: period.season_id,
      },
    };
  });

  app.get('/calendar', async (request) => {
    const { value: q, problems } = queryOf(request, seasonQuery);
    const seasonId = await existingId(ctx, 'seasons', q.season_id, 'season_id', problems);
    if (problems.length > 0) throw invalidParameters(problems);
    let seasonRow: Row | undefined;
    if (seasonId) seasonRow = await loadById(ctx, 'seasons', seasonId, 'season');
    else {
      seasonRow = await portalDb(ctx.db)
        .selectFrom('seasons')
        .selectAll()
        .orderBy('current_season', 'desc')
        .orderBy('season_start_date', 'desc')
        .executeTakeFirst();
      if (!seasonRow) throw notFound('There is no season yet: create one with POST /api/council/seasons.');
    }
    const periods = await portalDb(ctx.db)
      .selectFrom('reporting_periods as p')
      .select(['p.id', 'p.title', 'p.period_month', 'p.due_date'])
      .select((eb) =>
        eb
          .selectFrom('reporting_forms_packages as k')
          .whereRef('k.period_id', '=', 'p.id')
          .select((e) => e.fn.countAll().as('n'))
          .as('packages'),
      )
      .where('p.season_id', '=', seasonRow.id as string)
      .orderBy('p.period_month')
      .execute();
    return {
      season: seasonOut(seasonRow),
      year_end_due_date: String(seasonRow.reporting_due_date),
      periods: periods.map((p) => ({
        id: p.id,
        title: p.title,
        period_month: p.period_month,
        due_date: p.due_date,
        packages: Number(p.packages),
      })),
    };
  });
}
