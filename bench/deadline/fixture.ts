/**
 * What the deadline's sessions need from the data set: each handler's user, the open month's drafts (the work to
 * certify, each once) and certified forms 1 of the seasons before (the work to amend, each once).
 */
import { openDatabase } from '../../server/src/db/database.js';
import { enrolWithSecret, totpCode } from '../../server/src/oauth/mfa.js';
import { query } from '../data-set.js';
import { passwordGrant, type DataTarget } from '../server-process.js';

export type MonthlyBundle = 'apc_form_1' | 'apc_form_2' | 'apc_form_3';
export const MONTHLY_BUNDLES: MonthlyBundle[] = ['apc_form_1', 'apc_form_2', 'apc_form_3'];

export interface Draft {
  bundle: MonthlyBundle;
  id: string;
  handlerId: string;
}

export interface Fixture {
  /** The first user of each handler by handler id (bench-<number>). */
  userOf: Map<string, string>;
  handlerIds: string[];
  staff: string;
  seasonId: string;
  period: { id: string; month: string; dueDate: string };
  /** The open month's drafts, by form. */
  drafts: Record<MonthlyBundle, Draft[]>;
  /** Certified forms 1 of seasons before the current one (of any earlier month when there is no such season). */
  amendable: Array<{ id: string; handlerId: string; packageId: string }>;
}

export async function loadFixture(t: DataTarget): Promise<Fixture> {
  const users = await query(
    t,
    `select name, handler_id as "handlerId" from users
      where name like 'bench-%' and name not like '%-b' and status = 'active' and handler_id is not null order by name`,
  );
  const userOf = new Map(users.map((u) => [String(u.handlerId), String(u.name)]));
  const yes = t.dialect === 'sqlite' ? 1 : 'true';
  const season = await query(t, `select id, season_start_date as "start" from seasons where current_season = ${yes}`);
  const [period] = await query(
    t,
    `select id, period_month as "month", due_date as "dueDate" from reporting_periods
      order by period_month desc limit 1`,
  );
  const drafts = {} as Fixture['drafts'];
  for (const bundle of MONTHLY_BUNDLES) {
    const rows = await query(
      t,
      `select id, handler_id as "handlerId" from ${bundle}
        where period_id = ? and form_status = 'draft' and amendment_number = 0 order by handler_id`,
      [period.id],
    );
    drafts[bundle] = rows
      .filter((r) => userOf.has(String(r.handlerId)))
      .map((r) => ({ bundle, id: String(r.id), handlerId: String(r.handlerId) }));
  }
  const seasonStart = String(season[0].start).slice(0, 7);
  const amendable = (
    await query(
      t,
      `select f.id, f.handler_id as "handlerId", f.package_id as "packageId", p.period_month as "month"
        from apc_form_1 f join reporting_periods p on p.id = f.period_id
        where f.form_status = 'certified' and p.period_month < ? order by p.period_month, f.handler_id`,
      [period.month],
    )
  )
    .filter((r) => userOf.has(String(r.handlerId)))
    // Earlier seasons first: an amendment there changes no year-to-date figure of the open month's form 1.
    .sort((a, b) => Number(String(b.month) < seasonStart) - Number(String(a.month) < seasonStart))
    .map((r) => ({ id: String(r.id), handlerId: String(r.handlerId), packageId: String(r.packageId) }));
  return {
    userOf,
    handlerIds: [...userOf.keys()],
    staff: 'bench-staff',
    seasonId: String(season[0].id),
    period: { id: String(period.id), month: String(period.month), dueDate: String(period.dueDate) },
    drafts,
    amendable,
  };
}

/** The staff user's authenticator key on the run's copy (council staff sign in with a second factor). */
const STAFF_TOTP_SECRET = 'BENCHSTAFFDEADLINEKEY234567ABCDE';

/** Enrols the staff user's authenticator on the copy (unless it is), so the run can sign it in. */
export async function enrolStaff(t: DataTarget, staff: string): Promise<string> {
  const database = openDatabase({ url: t.url, pgSchema: t.schema });
  try {
    const user = await database.db.selectFrom('users').select('id').where('name', '=', staff).executeTakeFirstOrThrow();
    const has = await database.db
      .selectFrom('user_totp')
      .select('user_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!has) await enrolWithSecret(database.db, String(user.id), STAFF_TOTP_SECRET, new Date());
    return has ? '' : STAFF_TOTP_SECRET;
  } finally {
    await database.close();
  }
}

/** The staff user's access token: password and the authenticator's current code. */
export async function signInStaff(port: number, staff: string, secret: string): Promise<string> {
  const body = new URLSearchParams(passwordGrant(staff));
  body.set('totp', totpCode(secret, new Date()));
  const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  if (!res.ok) throw new Error(`sign-in of ${staff}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
