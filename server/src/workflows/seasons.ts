import {
  isPeriodMonth,
  monthlyDueDate,
  seasonEndDate,
  seasonOfPeriod,
  seasonStartDate,
  seasonTitle,
  yearEndDueDate,
} from '@pecan/contract';
import { lockForTransaction } from '../db/transaction-locks.js';
import { ApiError } from '../lib/errors.js';
import type { Row } from '../jsonapi/resource.js';
import { assertStaff, audit, dbBool, dbOf, insertNode, nowIso, type Actor } from './common.js';
import { createDraftPackage } from './packages.js';
import { periodTitle } from './period-title.js';

/**
 * A crop year, 1 September to 31 August, with its year-end due date. Idempotent by title, also when staff create it
 * twice at once: the second waits for the first to commit and finds its season (the title is unique, migration 017).
 */
export async function createSeason(a: Actor, startYear: number): Promise<{ id: string; created: boolean }> {
  const title = seasonTitle(startYear);
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`season:${title}`]);
  const existing = await dbOf(a).selectFrom('seasons').select('id').where('title', '=', title).executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  const id = await insertNode(a, 'seasons', {
    title,
    season_start_date: seasonStartDate(title),
    season_end_date: seasonEndDate(title),
    reporting_due_date: yearEndDueDate(title),
    current_season: dbBool(a, false),
  });
  return { id, created: true };
}

/** The id of a crop year's season, made if there is none (createSeason). */
export async function ensureSeason(a: Actor, startYear: number): Promise<string> {
  return (await createSeason(a, startYear)).id;
}

/** Exactly one season is current: setting one clears the others in the same transaction. */
export async function setCurrentSeason(a: Actor, seasonId: string): Promise<void> {
  assertStaff(a.viewer, 'choose the current season');
  const before = (await dbOf(a).selectFrom('seasons').select(['id', 'title', 'current_season']).execute()) as Row[];
  await dbOf(a)
    .updateTable('seasons')
    .set({ current_season: dbBool(a, false) })
    .where('id', '<>', seasonId)
    .execute();
  await dbOf(a)
    .updateTable('seasons')
    .set({ current_season: dbBool(a, true) })
    .where('id', '=', seasonId)
    .execute();
  for (const s of before) {
    const now = s.id === seasonId;
    if (Boolean(s.current_season) === now) continue;
    await audit(a, {
      type: 'seasons',
      id: String(s.id),
      action: 'set_current',
      before: s,
      after: { ...s, current_season: dbBool(a, now) },
    });
  }
}

/**
 * Staff close a season once its filings are final, and reopen it to let a handler amend one. Each change is an
 * audit entry (action `close` or `reopen`) with who did it and when; amending is refused while the season is closed.
 */
export async function setSeasonClosed(a: Actor, seasonId: string, closed: boolean): Promise<void> {
  assertStaff(a.viewer, closed ? 'close a season' : 'reopen a season');
  const before = (await dbOf(a)
    .selectFrom('seasons')
    .selectAll()
    .where('id', '=', seasonId)
    .executeTakeFirstOrThrow()) as Row;
  if (Boolean(before.season_closed) === closed) return;
  await dbOf(a)
    .updateTable('seasons')
    .set({ season_closed: dbBool(a, closed), changed: nowIso(a) })
    .where('id', '=', seasonId)
    .execute();
  await audit(a, {
    type: 'seasons',
    id: seasonId,
    action: closed ? 'close' : 'reopen',
    before,
    after: { ...before, season_closed: dbBool(a, closed) },
  });
}

export async function currentSeason(a: Actor): Promise<Row | undefined> {
  return await dbOf(a)
    .selectFrom('seasons')
    .selectAll()
    .where('current_season', '=', dbBool(a, true))
    .orderBy('season_start_date', 'desc')
    .executeTakeFirst();
}

/**
 * The reporting period of a month, made with its due date (10th of the next month, next business day). The month's
 * lock is held to the end of the transaction, so staff opening a month twice at once open it once: the second finds
 * the period and the packages the first made.
 */
export async function ensurePeriod(a: Actor, periodMonth: string): Promise<string> {
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`period:${periodMonth}`]);
  const existing = await dbOf(a)
    .selectFrom('reporting_periods')
    .select('id')
    .where('period_month', '=', periodMonth)
    .executeTakeFirst();
  if (existing) return existing.id;
  const season = seasonOfPeriod(periodMonth);
  const seasonId = await ensureSeason(a, Number(season.slice(0, 4)));
  return insertNode(a, 'reporting_periods', {
    title: periodTitle(periodMonth),
    period_month: periodMonth,
    due_date: monthlyDueDate(periodMonth),
    season_id: seasonId,
  });
}

export interface OpenedPeriod {
  periodId: string;
  packagesCreated: number;
}

/**
 * Staff open a month: the period, and for every active handler a package with draft forms 1, 2 and 3.
 * Running it again creates nothing twice (one package per handler and period is also a unique constraint).
 */
export async function openPeriod(a: Actor, periodMonth: string): Promise<OpenedPeriod> {
  assertStaff(a.viewer, 'open a reporting period');
  if (!isPeriodMonth(periodMonth))
    throw new ApiError(422, `"${periodMonth}" is not a month: write it as YYYY-MM.`, {
      source: { pointer: '/period_month' },
    });
  const periodId = await ensurePeriod(a, periodMonth);
  const handlers = await dbOf(a).selectFrom('handlers').select('id').where('handler_status', '=', 'active').execute();
  const existing = new Set(
    (
      await dbOf(a)
        .selectFrom('reporting_forms_packages')
        .select('handler_id')
        .where('period_id', '=', periodId)
        .execute()
    ).map((r) => r.handler_id),
  );
  let packagesCreated = 0;
  for (const h of handlers) {
    if (existing.has(h.id)) continue;
    await createDraftPackage(a, h.id, periodId);
    packagesCreated += 1;
  }
  return { periodId, packagesCreated };
}
