import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/database.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { integrityProblems } from './integrity.js';

/**
 * Durability: the real server process (tsx server/src/main.ts) under a storm of concurrent writes, killed with SIGKILL
 * at random moments and restarted. After every kill: every write the server acknowledged (2xx) is in the database,
 * no form is certified without its PDF (and, for form 1, its invoice), and the database passes its integrity checks.
 * Writes in flight at the kill have an unknown outcome: either is accepted, nothing else.
 */
const KILLS = Number(process.env.DURABILITY_KILLS ?? 3);
const ROOT = new URL('../../../', import.meta.url).pathname;
const PASSWORD = 'demo-pecans-2026';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class ServerProcess {
  child: ChildProcess | null = null;
  output = '';
  constructor(readonly env: Record<string, string>, readonly port: number) {}
  get base() { return `http://127.0.0.1:${this.port}`; }

  async start(timeoutMs: number): Promise<void> {
    this.child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
      cwd: ROOT, env: { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'],
      // tsx runs the server in a child process of its own: a process group of their own lets SIGKILL reach both.
      detached: true,
    });
    const child = this.child;
    child.stdout!.on('data', (b: Buffer) => { this.output = (this.output + b.toString()).slice(-4000); });
    child.stderr!.on('data', (b: Buffer) => { this.output = (this.output + b.toString()).slice(-4000); });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${this.output}`);
      try {
        const r = await fetch(`${this.base}/healthz`);
        if (r.status === 200) return;
      } catch { /* not listening yet */ }
      await sleep(150);
    }
    throw new Error(`the server did not start in ${timeoutMs} ms: ${this.output}`);
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, signal);
    await exited;
    // The group's other member (the server itself) is gone once the port is free again.
    for (let i = 0; i < 100; i++) {
      try { await fetch(`${this.base}/healthz`, { signal: AbortSignal.timeout(500) }); } catch { return; }
      await sleep(50);
    }
    throw new Error('the server still answers after being killed');
  }
}

type Outcome = 'acked' | 'unknown';
interface EditLog { formId: string; value: string; outcome: Outcome }
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

  it('keeps every acknowledged write, and every certification whole, through kills at random moments', { timeout: 300_000 }, async () => {
    const env: Record<string, string> = { PORTAL_DEMO_DATA: '1', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', NODE_ENV: 'development' };
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
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', client_id: 'portal-web', username, password: PASSWORD }),
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as { access_token: string }).access_token;
    };
    const tokens = { alice: await token('alice'), bob: await token('bob'), carol: await token('carol'), dave: await token('dave') };

    // What each client works on: a past month's certified form 1 (amended and certified again and again), and the
    // current month's draft form 3 (rows added and removed).
    const discovery = open();
    const handlers = Object.fromEntries((await discovery.db.selectFrom('handlers').select(['id', 'handler_number']).execute()).map((h) => [h.handler_number, String(h.id)]));
    const pastForm1 = async (handler: string) => String((await discovery.db.selectFrom('apc_form_1').select('id').where('handler_id', '=', handler)
      .where('form_status', '=', 'certified').orderBy('period_id').executeTakeFirstOrThrow()).id);
    const draftForm3 = async (handler: string) => String((await discovery.db.selectFrom('apc_form_3').select('id').where('handler_id', '=', handler)
      .where('form_status', '=', 'draft').executeTakeFirstOrThrow()).id);
    const lanes = {
      alice: { form1: await pastForm1(handlers['101']) },
      dave: { form1: await pastForm1(handlers['103']) },
      bob: { form3: await draftForm3(handlers['101']) },
      carol: { form3: await draftForm3(handlers['102']) },
    };
    await discovery.close();

    const log: Storm = { edits: [], certified: [], created: [], deleted: [], deleteUnknown: new Set(), acked: 0, unknown: 0, refused: {} };
    let up = true;
    let stopping = false;
    let ready: Promise<void> = Promise.resolve();

    /** One request; null when the server went away before answering (the outcome is unknown). */
    const call = async (who: keyof typeof tokens, method: string, path: string, body?: unknown): Promise<{ status: number; json: any } | null> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        const r = await fetch(`${s.base}${path}`, {
          method, headers: { authorization: `Bearer ${tokens[who]}`, accept: 'application/vnd.api+json', ...(body ? { 'content-type': 'application/vnd.api+json' } : {}) },
          body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(30_000),
        });
        const text = await r.text();
        if (r.status >= 500) throw new Error(`${method} ${path} -> ${r.status} ${text}`);
        if (r.status >= 200 && r.status < 300) log.acked += 1;
        else log.refused[r.status] = (log.refused[r.status] ?? 0) + 1;
        return { status: r.status, json: text ? JSON.parse(text) : null };
      } catch (e) {
        if (e instanceof Error && e.message.includes(' -> 5')) throw e;
        log.unknown += 1;
        return null;
      }
    };
    const waitUp = async () => { while (!up && !stopping) await ready; };

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
            data: { type: 'node--apc_form_1', id, attributes: { field_amendment_reason: `amend ${id}` }, relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: current } } } },
          });
          if (r?.status === 201) { log.created.push({ table: 'apc_form_1', id }); current = id; status = 'draft'; edits = 0; continue; }
          // Unknown or refused: find where the chain stands now.
          const now = await call(who, 'GET', `/jsonapi/node/apc_form_1/${id}`);
          if (now?.status === 200) { current = id; status = now.json.data.attributes.field_form_status === 'draft' ? 'draft' : 'certified'; }
          continue;
        }
        if (edits < 3) {
          const value = `edit ${randomUUID()}`;
          const r = await call(who, 'PATCH', `/jsonapi/node/apc_form_1/${current}`, { data: { type: 'node--apc_form_1', id: current, attributes: { field_amendment_reason: value } } });
          if (r === null || (r.status >= 200 && r.status < 300)) log.edits.push({ formId: current, value, outcome: r ? 'acked' : 'unknown' });
          edits += 1;
          continue;
        }
        const r = await call(who, 'PATCH', `/jsonapi/node/apc_form_1/${current}`, {
          data: { type: 'node--apc_form_1', id: current, attributes: { field_certified: true, field_certification_name: who } },
        });
        if (r?.status === 200) { log.certified.push({ bundle: 'apc_form_1', id: current }); status = 'certified'; continue; }
        const now = await call(who, 'GET', `/jsonapi/node/apc_form_1/${current}`);
        if (now?.status === 200 && now.json.data.attributes.field_form_status !== 'draft') status = 'certified';
        else if (r && r.status !== 200) throw new Error(`certification refused: ${JSON.stringify(r.json)}`);
      }
    };

    /** Add rows to a draft form 3 and remove some: a form 3 lane. */
    const rowLane = async (who: 'bob' | 'carol', formId: string) => {
      const mine: string[] = [];
      while (!stopping) {
        await waitUp();
        if (stopping) break;
        if (mine.length > 3 && Math.random() < 0.4) {
          const id = mine.splice(Math.floor(Math.random() * mine.length), 1)[0];
          const r = await call(who, 'DELETE', `/jsonapi/node/export_by_country/${id}`);
          if (r?.status === 204) log.deleted.push({ table: 'export_by_country', id });
          else if (r === null) log.deleteUnknown.add(id);
          continue;
        }
        const id = randomUUID();
        const r = await call(who, 'POST', '/jsonapi/node/export_by_country', {
          data: {
            type: 'node--export_by_country', id, attributes: { field_country: 'CA', field_inshell_lb: Math.floor(Math.random() * 10_000), field_shelled_lb: 0, field_substandard_lb: 0 },
            relationships: { field_form: { data: { type: 'node--apc_form_3', id: formId } } },
          },
        });
        if (r?.status === 201) { log.created.push({ table: 'export_by_country', id }); mine.push(id); }
        else if (r && r.status !== 201) throw new Error(`row refused: ${JSON.stringify(r.json)}`);
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
          else if (!log.deleteUnknown.has(c.id)) expect(row, `${c.table} ${c.id} was created (201) but is missing`).toBeDefined();
          checked += 1;
        }
        // Per form: the value is the last acknowledged edit, or one sent after it whose answer was lost.
        const byForm = new Map<string, EditLog[]>();
        for (const e of log.edits) byForm.set(e.formId, [...(byForm.get(e.formId) ?? []), e]);
        for (const [formId, edits] of byForm) {
          const lastAcked = edits.map((e) => e.outcome).lastIndexOf('acked');
          if (lastAcked < 0) continue;
          const allowed = [edits[lastAcked].value, ...edits.slice(lastAcked + 1).map((e) => e.value)];
          const row = await db.selectFrom('apc_form_1').select('amendment_reason').where('id', '=', formId).executeTakeFirstOrThrow();
          expect(allowed, `form ${formId}: its last acknowledged edit is lost`).toContain(row.amendment_reason);
          checked += edits.filter((e) => e.outcome === 'acked').length;
        }
        for (const c of log.certified) {
          const row = await db.selectFrom(c.bundle).select(['form_status', 'form_1_pdf_id']).where('id', '=', c.id).executeTakeFirstOrThrow();
          expect(['certified', 'superseded'], `${c.id} was certified (200)`).toContain(row.form_status);
          checked += 1;
        }
        // Whole certifications, over every form in the database (the demo's and the storm's).
        for (const n of [1, 2, 3, 5]) {
          const missing = await db.selectFrom(`apc_form_${n} as f`).leftJoin('files as p', 'p.id', `f.form_${n}_pdf_id`)
            .select('f.id').where('f.form_status', 'in', ['certified', 'superseded']).where('p.id', 'is', null).execute();
          expect(missing, `certified forms ${n} without a PDF`).toEqual([]);
        }
        // Form 1: its period's invoices (each with its PDF) bill exactly the assessment of the current certified version.
        const invoices = await db.selectFrom('invoices').select(['handler_id', 'period_id', 'amount_due_cents', 'invoice_pdf_id']).execute();
        const billed = new Map<string, number>();
        for (const i of invoices) {
          expect(i.invoice_pdf_id, 'an invoice without its PDF').not.toBeNull();
          const k = `${String(i.handler_id)}/${String(i.period_id)}`;
          billed.set(k, (billed.get(k) ?? 0) + Number(i.amount_due_cents));
        }
        const current = await db.selectFrom('apc_form_1').select(['id', 'handler_id', 'period_id', 'assessment_due_cents']).where('form_status', '=', 'certified').execute();
        for (const f of current) {
          expect(billed.get(`${String(f.handler_id)}/${String(f.period_id)}`), `certified form 1 ${String(f.id)}: invoices do not bill its assessment`).toBe(Number(f.assessment_due_cents));
        }
      } finally {
        await database.close();
      }
      return checked;
    };

    const workers = [formLane('alice', lanes.alice.form1), formLane('dave', lanes.dave.form1), rowLane('bob', lanes.bob.form3), rowLane('carol', lanes.carol.form3)]
      .map((p) => p.catch((e: unknown) => { stopping = true; throw e; }));
    let verified = 0;
    try {
      for (let k = 0; k < KILLS && !stopping; k++) {
        await sleep(1500 + Math.random() * 2500);
        let restart!: () => void;
        ready = new Promise((r) => { restart = r; });
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
    console.log(`[${target.dialect}] durability: first start with the demo data ${firstStart} s, then ${KILLS} SIGKILLs in ${Math.round((Date.now() - started) / 1000) - firstStart} s; ${log.acked} writes and reads acknowledged, `
      + `${log.created.length} creations, ${log.edits.filter((e) => e.outcome === 'acked').length} edits, ${log.certified.length} certifications, ${log.deleted.length} deletions `
      + `acknowledged; ${verified} acknowledged writes verified after the last kill; ${log.unknown} requests cut off by a kill; refused: ${JSON.stringify(log.refused)}`);
    expect(log.certified.length).toBeGreaterThan(0);
    expect(log.created.length).toBeGreaterThan(0);
  });
});
