import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { freePort } from '../test-support/free-port.js';
import { integrityProblems } from './integrity.js';

/**
 * Durability: the real server process (tsx server/src/main.ts) under a storm of concurrent writes, killed with SIGKILL
 * at random moments and restarted. After every kill: every write the server acknowledged (2xx) is in the database,
 * no form is certified without its PDF (and, for form 1, its invoice), and the database passes its integrity checks.
 * Writes in flight at the kill have an unknown outcome: either is accepted, nothing else. So a write is logged before
 * it is sent: the check may run before its client hears that the kill cut the request off.
 */
const KILLS = Number(process.env.DURABILITY_KILLS ?? 3);
const ROOT = new URL('../../../', import.meta.url).pathname;
const PASSWORD = 'demo-pecans-2026';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const T0 = Date.now();
/** Seconds since the file started: the time line of a failure message. */
const clock = () => Number(((Date.now() - T0) / 1000).toFixed(2));

class ServerProcess {
  child: ChildProcess | null = null;
  output = '';
  /** How many servers have started: which one a request went to. */
  life = 0;
  /** Starts and kills with their times, for failure messages. */
  readonly events: string[] = [];
  constructor(
    readonly env: Record<string, string>,
    readonly port: number,
  ) {}
  get base() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(timeoutMs: number): Promise<void> {
    this.child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // tsx runs the server in a child process of its own: a process group of their own lets SIGKILL reach both.
      detached: true,
    });
    const child = this.child;
    child.stdout!.on('data', (b: Buffer) => {
      this.output = (this.output + b.toString()).slice(-4000);
    });
    child.stderr!.on('data', (b: Buffer) => {
      this.output = (this.output + b.toString()).slice(-4000);
    });
    this.life += 1;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${this.output}`);
      try {
        const r = await fetch(`${this.base}/healthz`);
        if (r.status === 200) {
          this.events.push(`${clock()} s: server ${this.life} up`);
          return;
        }
      } catch {
        /* not listening yet */
      }
      await sleep(150);
    }
    throw new Error(`the server did not start in ${timeoutMs} ms: ${this.output}`);
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    this.events.push(`${clock()} s: server ${this.life} sent ${signal}`);
    process.kill(-child.pid!, signal);
    await exited;
    // tsx's own exit says nothing of the server, its child: a killed process lingers until the kernel has torn it
    // down (longer in an uninterruptible write or fsync), still holding its sockets and SQLite's locks. A port that
    // stops answering is no proof either (a loaded machine misses a short timeout), so wait for the whole group.
    const deadline = Date.now() + 60_000;
    while (groupAlive(child.pid!)) {
      if (Date.now() > deadline) throw new Error(`process group ${child.pid} still alive 60 s after ${signal}`);
      await sleep(20);
    }
    this.events.push(`${clock()} s: server ${this.life} gone`);
  }
}

/**
 * Whether any process of the group can still act. A zombie cannot (it has closed its files and released its
 * locks) and lingers until its new parent reaps it, which a container's init may never do: on Linux, /proc tells.
 */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
  if (!existsSync('/proc/self/stat')) return true;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    } // gone meanwhile
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after its last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Until its answer, a write's outcome is unknown; a refusal changed nothing. */
type Outcome = 'acked' | 'unknown' | 'refused';
/** When a request went, to which server, and how it ended (its status, or the error that cut it off). */
interface Trace {
  life: number;
  sent: number;
  answered: number;
  result: string;
}
interface EditLog {
  formId: string;
  value: string;
  outcome: Outcome;
  trace: Trace;
}
interface Storm {
  edits: EditLog[];
  certified: Array<{ bundle: string; id: string }>;
  created: Array<{ table: string; id: string }>; // acknowledged 201
  deleted: Array<{ table: string; id: string }>; // acknowledged 204
  deleteUnknown: Set<string>;
  acked: number;
  unknown: number;
  refused: Record<string, number>;
}

describeEachDatabase('durability under SIGKILL', (target) => {
  let dir: string | null = null;
  let schema: string | null = null;
  let server: ServerProcess | null = null;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (schema) {
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });

  it(
    'keeps every acknowledged write, and every certification whole, through kills at random moments',
    { timeout: 300_000 },
    async () => {
      const env: Record<string, string> = {
        PORTAL_DEMO_DATA: '1',
        LOG_LEVEL: 'warn',
        WEB_DIST: 'none',
        NODE_ENV: 'development',
      };
      let open: () => Database;
      if (target.dialect === 'sqlite') {
        dir = mkdtempSync(join(tmpdir(), 'portal-durability-'));
        env.DATABASE_URL = `sqlite:${join(dir, 'portal.sqlite')}`;
        open = () => openDatabase({ url: env.DATABASE_URL, poolSize: 1 });
      } else {
        schema = `dur_${randomBytes(5).toString('hex')}`;
        const admin = new pg.Client({ connectionString: target.url });
        await admin.connect();
        await admin.query(`create schema ${schema}`);
        await admin.end();
        env.DATABASE_URL = target.url;
        env.DATABASE_SCHEMA = schema;
        open = () => openDatabase({ url: target.url, pgSchema: schema!, poolSize: 2 });
      }
      server = new ServerProcess(env, await freePort());
      const started = Date.now();
      await server.start(180_000); // the first start loads the demo data set
      const firstStart = Math.round((Date.now() - started) / 1000);
      const s = server;

      // Sign in the storm's clients; tokens live in the database and survive restarts.
      const token = async (username: string) => {
        const r = await fetch(`${s.base}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password: PASSWORD }),
        });
        expect(r.status).toBe(200);
        return ((await r.json()) as { access_token: string }).access_token;
      };
      const tokens = {
        alice: await token('alice'),
        bob: await token('bob'),
        carol: await token('carol'),
        dave: await token('dave'),
      };

      // What each client works on: a past month's certified form 1 (amended and certified again and again), and the
      // current month's draft form 3 (rows added and removed).
      const discovery = open();
      const handlers = Object.fromEntries(
        (await discovery.db.selectFrom('handlers').select(['id', 'handler_number']).execute()).map((h) => [
          h.handler_number,
          String(h.id),
        ]),
      );
      const pastForm1 = async (handler: string) =>
        String(
          (
            await discovery.db
              .selectFrom('apc_form_1')
              .select('id')
              .where('handler_id', '=', handler)
              .where('form_status', '=', 'certified')
              .orderBy('period_id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const draftForm3 = async (handler: string) =>
        String(
          (
            await discovery.db
              .selectFrom('apc_form_3')
              .select('id')
              .where('handler_id', '=', handler)
              .where('form_status', '=', 'draft')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const lanes = {
        alice: { form1: await pastForm1(handlers['101']) },
        dave: { form1: await pastForm1(handlers['103']) },
        bob: { form3: await draftForm3(handlers['101']) },
        carol: { form3: await draftForm3(handlers['102']) },
      };
      await discovery.close();

      const log: Storm = {
        edits: [],
        certified: [],
        created: [],
        deleted: [],
        deleteUnknown: new Set(),
        acked: 0,
        unknown: 0,
        refused: {},
      };
      let up = true;
      let stopping = false;
      let ready: Promise<void> = Promise.resolve();

      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever each answer holds
      type Answer = { status: number; json: any };
      /** One request; null when the server went away before answering (the outcome is unknown). */
      const call = async (
        who: keyof typeof tokens,
        method: string,
        path: string,
        body?: unknown,
        trace?: Trace,
      ): Promise<Answer | null> => {
        const t = trace ?? { life: 0, sent: 0, answered: 0, result: '' };
        Object.assign(t, { life: s.life, sent: clock() });
        try {
          const r = await fetch(`${s.base}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${tokens[who]}`,
              accept: 'application/vnd.api+json',
              ...(body ? { 'content-type': 'application/vnd.api+json' } : {}),
            },
            body: body ? JSON.stringify(body) : undefined,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await r.text();
          Object.assign(t, { answered: clock(), result: String(r.status) });
          if (r.status >= 500) throw new Error(`${method} ${path} -> ${r.status} ${text}`);
          if (r.status >= 200 && r.status < 300) log.acked += 1;
          else log.refused[r.status] = (log.refused[r.status] ?? 0) + 1;
          return { status: r.status, json: text ? JSON.parse(text) : null };
        } catch (e) {
          if (e instanceof Error && e.message.includes(' -> 5')) throw e;
          const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
          Object.assign(t, {
            answered: clock(),
            result: `${e instanceof Error ? e.name : 'error'} ${String(e instanceof Error ? e.message : e)}${cause}`,
          });
          log.unknown += 1;
          return null;
        }
      };
      const waitUp = async () => {
        while (!up && !stopping) await ready;
      };
      /**
       * A read that settles what a cut-off write did: asked once the server is back, until it answers (asked at once,
       * it met the killed server, and an amendment that had landed was never found: the lane then asked for another
       * one again and again, refused each time as one was already open). Null only when the storm is over.
       */
      const lookUp = async (who: keyof typeof tokens, path: string) => {
        for (;;) {
          await waitUp();
          if (stopping) return null;
          const r = await call(who, 'GET', path);
          if (r) return r;
          await sleep(100);
        }
      };

      /** Amend, edit, certify, again: a form 1 lane. */
      const formLane = async (who: 'alice' | 'dave', startId: string) => {
        let current = startId;
        let status: 'draft' | 'certified' = 'certified';
        let edits = 0;
        while (!stopping) {
          await waitUp();
          if (stopping) break;
          if (status === 'certified') {
            const id = randomUUID(); // client-generated, so an amendment in flight at a kill can be found
            const r = await call(who, 'POST', '/jsonapi/node/apc_form_1', {
              data: {
                type: 'node--apc_form_1',
                id,
                attributes: { field_amendment_reason: `amend ${id}` },
                relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: current } } },
              },
            });
            if (r?.status === 201) {
              log.created.push({ table: 'apc_form_1', id });
              current = id;
              status = 'draft';
              edits = 0;
              continue;
            }
            // Unknown or refused: find where the chain stands now.
            const now = await lookUp(who, `/jsonapi/node/apc_form_1/${id}`);
            if (now?.status === 200) {
              current = id;
              status = now.json.data.attributes.field_form_status === 'draft' ? 'draft' : 'certified';
              edits = 0;
            }
            continue;
          }
          if (edits < 3) {
            const value = `edit ${randomUUID()}`;
            // Logged before it is sent (see above): the server may have committed it when the kill cut off its answer.
            const edit: EditLog = {
              formId: current,
              value,
              outcome: 'unknown',
              trace: { life: 0, sent: 0, answered: 0, result: '' },
            };
            log.edits.push(edit);
            const r = await call(
              who,
              'PATCH',
              `/jsonapi/node/apc_form_1/${current}`,
              { data: { type: 'node--apc_form_1', id: current, attributes: { field_amendment_reason: value } } },
              edit.trace,
            );
            if (r) edit.outcome = r.status >= 200 && r.status < 300 ? 'acked' : 'refused';
            edits += 1;
            continue;
          }
          const r = await call(who, 'PATCH', `/jsonapi/node/apc_form_1/${current}`, {
            data: {
              type: 'node--apc_form_1',
              id: current,
              attributes: { field_certified: true, field_certification_name: who },
            },
          });
          if (r?.status === 200) {
            log.certified.push({ bundle: 'apc_form_1', id: current });
            status = 'certified';
            continue;
          }
          const now = await lookUp(who, `/jsonapi/node/apc_form_1/${current}`);
          if (now === null) break;
          if (now.status === 200 && now.json.data.attributes.field_form_status !== 'draft') status = 'certified';
          else if (r && r.status !== 200) throw new Error(`certification refused: ${JSON.stringify(r.json)}`);
        }
      };

      /** Countries no demo form 3 uses: a lane's rows take one each (a form has one row per country). */
      const EXPORT_COUNTRIES =
        'AR BR CL CO PE EC UY PY BO NO SE FI DK IS EE LV LT PL CZ SK HU RO BG GR PT IE AT CH LU MT'.split(' ');

      /** Add rows to a draft form 3 and remove some: a form 3 lane. */
      const rowLane = async (who: 'bob' | 'carol', formId: string) => {
        const mine: string[] = [];
        // The country of each row this lane created or may have created (an unanswered POST keeps its country).
        const countryOf = new Map<string, string>();
        while (!stopping) {
          await waitUp();
          if (stopping) break;
          if (mine.length > 3 && Math.random() < 0.4) {
            const id = mine.splice(Math.floor(Math.random() * mine.length), 1)[0];
            log.deleteUnknown.add(id); // until answered (as an edit: logged before it is sent)
            const r = await call(who, 'DELETE', `/jsonapi/node/export_by_country/${id}`);
            if (r?.status === 204) {
              log.deleted.push({ table: 'export_by_country', id });
              countryOf.delete(id);
            }
            if (r) log.deleteUnknown.delete(id);
            continue;
          }
          // A form has one row per country: a new row takes a country no row of this lane may hold.
          const country = EXPORT_COUNTRIES.find((c) => ![...countryOf.values()].includes(c));
          if (!country) continue;
          const id = randomUUID();
          countryOf.set(id, country);
          const r = await call(who, 'POST', '/jsonapi/node/export_by_country', {
            data: {
              type: 'node--export_by_country',
              id,
              attributes: {
                field_country: country,
                field_inshell_lb: Math.floor(Math.random() * 10_000),
                field_shelled_lb: 0,
                field_substandard_lb: 0,
              },
              relationships: { field_form: { data: { type: 'node--apc_form_3', id: formId } } },
            },
          });
          if (r?.status === 201) {
            log.created.push({ table: 'export_by_country', id });
            mine.push(id);
          } else if (r && r.status !== 201) throw new Error(`row refused: ${JSON.stringify(r.json)}`);
        }
      };

      /** Everything acknowledged is there; nothing certified lacks its PDF or invoice; the database is sound. */
      const verify = async (): Promise<number> => {
        const database = open();
        const db = database.db;
        let checked = 0;
        try {
          expect(await integrityProblems(db, database.dialect)).toEqual([]);
          const deleted = new Set(log.deleted.map((d) => d.id));
          for (const c of log.created) {
            const row = await db.selectFrom(c.table).select('id').where('id', '=', c.id).executeTakeFirst();
            if (deleted.has(c.id)) expect(row, `${c.table} ${c.id} was deleted (204) but is there`).toBeUndefined();
            else if (!log.deleteUnknown.has(c.id))
              expect(row, `${c.table} ${c.id} was created (201) but is missing`).toBeDefined();
            checked += 1;
          }
          // Per form: the value is the last acknowledged edit, or one sent after it whose answer was lost.
          const byForm = new Map<string, EditLog[]>();
          for (const e of log.edits.filter((x) => x.outcome !== 'refused'))
            byForm.set(e.formId, [...(byForm.get(e.formId) ?? []), e]);
          for (const [formId, edits] of byForm) {
            const lastAcked = edits.map((e) => e.outcome).lastIndexOf('acked');
            if (lastAcked < 0) continue;
            const allowed = [edits[lastAcked].value, ...edits.slice(lastAcked + 1).map((e) => e.value)];
            const row = await db
              .selectFrom('apc_form_1')
              .select('amendment_reason')
              .where('id', '=', formId)
              .executeTakeFirstOrThrow();
            if (!allowed.includes(row.amendment_reason)) {
              expect.fail(
                `form ${formId}: its last acknowledged edit is lost\n${await editHistory(db, formId, edits, row.amendment_reason)}`,
              );
            }
            checked += edits.filter((e) => e.outcome === 'acked').length;
          }
          for (const c of log.certified) {
            const row = await db
              .selectFrom(c.bundle)
              .select(['form_status', 'form_1_pdf_id'])
              .where('id', '=', c.id)
              .executeTakeFirstOrThrow();
            expect(['certified', 'superseded'], `${c.id} was certified (200)`).toContain(row.form_status);
            checked += 1;
          }
          // Whole certifications, over every form in the database (the demo's and the storm's).
          for (const n of [1, 2, 3, 5]) {
            const missing = await db
              .selectFrom(`apc_form_${n} as f`)
              .leftJoin('files as p', 'p.id', `f.form_${n}_pdf_id`)
              .select('f.id')
              .where('f.form_status', 'in', ['certified', 'superseded'])
              .where('p.id', 'is', null)
              .execute();
            expect(missing, `certified forms ${n} without a PDF`).toEqual([]);
          }
          // Form 1: its period's invoices (each with its PDF) bill exactly the assessment of the current certified
          // version.
          const invoices = await db
            .selectFrom('invoices')
            .select(['handler_id', 'period_id', 'amount_due_cents', 'invoice_pdf_id'])
            .execute();
          const billed = new Map<string, number>();
          for (const i of invoices) {
            expect(i.invoice_pdf_id, 'an invoice without its PDF').not.toBeNull();
            const k = `${String(i.handler_id)}/${String(i.period_id)}`;
            billed.set(k, (billed.get(k) ?? 0) + Number(i.amount_due_cents));
          }
          const current = await db
            .selectFrom('apc_form_1')
            .select(['id', 'handler_id', 'period_id', 'assessment_due_cents'])
            .where('form_status', '=', 'certified')
            .execute();
          for (const f of current) {
            expect(
              billed.get(`${String(f.handler_id)}/${String(f.period_id)}`),
              `certified form 1 ${String(f.id)}: invoices do not bill its assessment`,
            ).toBe(Number(f.assessment_due_cents));
          }
        } finally {
          await database.close();
        }
        return checked;
      };

      /**
       * What a failure message needs to tell a lost write from a late one: the edits as the client sent them (when, to
       * which server, how each ended), the form's updates as the server committed them (its audit log, in order), and
       * when each server started and was killed.
       */
      const editHistory = async (
        db: Database['db'],
        formId: string,
        edits: EditLog[],
        found: unknown,
      ): Promise<string> => {
        const name = (value: unknown) => {
          const i = edits.findIndex((e) => e.value === value);
          return i < 0 ? JSON.stringify(value) : `#${i + 1}`;
        };
        const sent = edits.map(
          (e, i) =>
            `  #${i + 1} ${e.outcome}: sent ${e.trace.sent} s to server ${e.trace.life}, ${e.trace.result ? `ended ${e.trace.answered} s: ${e.trace.result}` : 'no answer yet'}`,
        );
        const audit = await db
          .selectFrom('audit_log')
          .select(['id', 'occurred_at', 'action', 'after_values'])
          .where('entity_type', '=', 'apc_form_1')
          .where('entity_id', '=', formId)
          .orderBy('id')
          .execute();
        const committed = audit.map(
          (a) =>
            `  ${String(a.occurred_at)} ${String(a.action)}: ${name((JSON.parse(String(a.after_values ?? '{}')) as Record<string, unknown>).amendment_reason)}`,
        );
        return [
          `it holds ${name(found)}; the edits sent:`,
          ...sent,
          'its audit log:',
          ...committed,
          'the servers:',
          ...s.events.map((e) => `  ${e}`),
        ].join('\n');
      };

      const workers = [
        formLane('alice', lanes.alice.form1),
        formLane('dave', lanes.dave.form1),
        rowLane('bob', lanes.bob.form3),
        rowLane('carol', lanes.carol.form3),
      ].map((p) =>
        p.catch((e: unknown) => {
          stopping = true;
          throw e;
        }),
      );
      let verified = 0;
      try {
        for (let k = 0; k < KILLS && !stopping; k++) {
          await sleep(1500 + Math.random() * 2500);
          let restart!: () => void;
          ready = new Promise((r) => {
            restart = r;
          });
          up = false;
          await s.kill('SIGKILL');
          verified = await verify();
          await s.start(60_000);
          up = true;
          restart();
        }
        await sleep(1500);
      } finally {
        stopping = true;
        up = true;
      }
      await Promise.all(workers);
      await s.kill('SIGKILL');
      verified = await verify();
      console.log(
        `[${target.dialect}] durability: first start with the demo data ${firstStart} s, then ${KILLS} SIGKILLs in ${Math.round((Date.now() - started) / 1000) - firstStart} s; ${log.acked} writes and reads acknowledged, ` +
          `${log.created.length} creations, ${log.edits.filter((e) => e.outcome === 'acked').length} edits, ${log.certified.length} certifications, ${log.deleted.length} deletions ` +
          `acknowledged; ${verified} acknowledged writes verified after the last kill; ${log.unknown} requests cut off by a kill; refused: ${JSON.stringify(log.refused)}`,
      );
      expect(log.certified.length).toBeGreaterThan(0);
      expect(log.created.length).toBeGreaterThan(0);
    },
  );
});
