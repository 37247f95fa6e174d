/**
 * What each kind of session of the model sends: the web app's own requests (its query builders, its write
 * documents) in the order a user's clicks send them. A session's first request is due when it arrives; each next one
 * a think time after the answer before it (a user reads the answer before the next click), and its latency counts
 * from when it was due, so a slow server or a late load generator shows in the figures (no coordinated omission).
 */
import { performance } from 'node:perf_hooks';
import { form1Figures } from '../../server/src/demo/filings.js';
import { DEMO_VARIETIES } from '../../server/src/demo/data.js';
import { boardPageParams, boardScopeParams } from '../../web/src/features/council-ops/api/board-params.js';
import { formParams } from '../../web/src/features/forms/api/form-params.js';
import { buildUrl, ref, writeDocument } from '../../web/src/lib/jsonapi/client.js';
import { batchBlueprint } from '../../web/src/lib/jsonapi/subrequests.js';
import { invoicesParams } from '../../web/src/lib/portal/invoice-params.js';
import { nextPackageParams } from '../../web/src/lib/portal/package-params.js';
import { startupReads } from '../../web/src/lib/portal/startup-read-list.js';
import { passwordGrant } from '../server-process.js';
import type { Draft, Fixture, MonthlyBundle } from './fixture.js';
import { SAVES_PER_FORM, type SessionName } from './model.js';
import type { OpClass, Sample } from './stats.js';

const JSONAPI = 'application/vnd.api+json';

interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Answer {
  ok: boolean;
  json?: { data?: { id?: string; attributes?: Record<string, unknown> } };
}

/** The run's shared state: servers, tokens, the work not yet done, and what was recorded. */
export class LoadRun {
  samples: Sample[] = [];
  errorExamples: string[] = [];
  /** Sessions that found no work left of their kind (and so did something else, or nothing). */
  ranOut: Record<string, number> = {};
  /** The read-only mix: a form filing only opens the form page (of any open-month draft). */
  readOnly = false;
  private stepStart = performance.now();
  private pending = new Set<Promise<unknown>>();
  private next = 0;
  private draftsLeft: Record<MonthlyBundle, Draft[]>;
  private amendableLeft: Fixture['amendable'];

  constructor(
    readonly ports: number[],
    readonly fx: Fixture,
    readonly tokens: Map<string, string>,
    readonly thinkMs: number,
    readonly random: () => number,
  ) {
    this.draftsLeft = {
      apc_form_1: [...fx.drafts.apc_form_1],
      apc_form_2: [...fx.drafts.apc_form_2],
      apc_form_3: [...fx.drafts.apc_form_3],
    };
    this.amendableLeft = [...fx.amendable];
  }

  startStep(): void {
    this.samples = [];
    this.stepStart = performance.now();
  }

  /** Starts a session at `atSeconds` of the step (not awaited: open loop); `settle` waits for every one. */
  start(kind: SessionName, atSeconds: number): void {
    const run = SESSIONS_BY_KIND[kind](this, this.stepStart + atSeconds * 1000).catch((e: unknown) => {
      this.errorExamples.push(`${kind}: ${e instanceof Error ? e.message : String(e)}`);
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /**
   * Each read of the mix a few times, not counted: the first requests of a fresh server compile its paths and fill
   * its caches, which belongs to starting it, not to the deadline.
   */
  async warmUp(kinds: SessionName[], times = 5): Promise<void> {
    const readOnly = this.readOnly;
    this.readOnly = true;
    for (const kind of kinds)
      for (let i = 0; i < times * this.ports.length; i += 1) await SESSIONS_BY_KIND[kind](this, 0);
    await this.settle();
    this.readOnly = readOnly;
    this.samples = [];
    this.errorExamples = [];
  }

  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Sessions go to the servers in turn (the load spread over --processes). */
  server(): number {
    return this.ports[this.next++ % this.ports.length];
  }

  takeDraft(bundle: MonthlyBundle): Draft | undefined {
    return this.draftsLeft[bundle].shift();
  }

  takeAmendable(): Fixture['amendable'][number] | undefined {
    return this.amendableLeft.shift();
  }

  draftsRemaining(): number {
    return Object.values(this.draftsLeft).reduce((n, l) => n + l.length, 0);
  }

  randomHandler(): string {
    return this.fx.handlerIds[Math.floor(this.random() * this.fx.handlerIds.length)];
  }

  auth(handlerId: string | null): Record<string, string> {
    const name = handlerId ? this.fx.userOf.get(handlerId)! : this.fx.staff;
    return { authorization: `Bearer ${this.tokens.get(name)}`, accept: JSONAPI };
  }

  /** Sends `req` when it is due (performance.now() ms), records its latency from then; the answer's JSON if asked. */
  async send(op: string, cls: OpClass, port: number, req: Req, due: number, wantJson = false): Promise<Answer> {
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    let answer: Answer = { ok: false };
    try {
      const res = await fetch(`http://127.0.0.1:${port}${req.path}`, {
        method: req.method ?? 'GET',
        headers: req.headers,
        body: req.body,
      });
      if (!res.ok) {
        const text = await res.text();
        if (this.errorExamples.length < 20) this.errorExamples.push(`${op}: ${res.status} ${text.slice(0, 300)}`);
      } else if (wantJson) answer = { ok: true, json: (await res.json()) as Answer['json'] };
      else {
        await res.arrayBuffer();
        answer = { ok: true };
      }
    } catch (e) {
      if (this.errorExamples.length < 20) this.errorExamples.push(`${op}: ${e instanceof Error ? e.message : e}`);
    }
    this.samples.push({ op, cls, due: due - this.stepStart, latency: performance.now() - due, ok: answer.ok });
    return answer;
  }

  /** A request sent beside the session's chain (the reads the web app refreshes after a write). */
  beside(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** When the next click of a session is due: a think time from now. */
  afterThink(): number {
    return performance.now() + this.thinkMs;
  }
}

type Session = (run: LoadRun, due: number) => Promise<void>;

const write = (run: LoadRun, handlerId: string, method: string, path: string, document: unknown): Req => ({
  method,
  path,
  headers: { ...run.auth(handlerId), 'content-type': JSONAPI },
  body: JSON.stringify(document),
});

const dashboard = (run: LoadRun, port: number, handlerId: string, due: number, token?: string) =>
  run.send(
    'dashboard (sign-in batch)',
    'read',
    port,
    {
      method: 'POST',
      path: '/subrequests?_format=json',
      headers: {
        ...run.auth(handlerId),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
      },
      body: JSON.stringify(batchBlueprint(startupReads(run.fx.userOf.get(handlerId)!))),
    },
    due,
  );

/** The form page's reads: the form with its includes, and its Next package button's. */
function formPage(
  run: LoadRun,
  port: number,
  d: { bundle: MonthlyBundle; id: string; handlerId: string },
  due: number,
) {
  run.beside(
    run.send(
      'next package (form page)',
      'read',
      port,
      {
        path: buildUrl('/jsonapi/node/reporting_forms_package', nextPackageParams(d.handlerId, run.fx.period.dueDate)),
        headers: run.auth(d.handlerId),
      },
      due,
    ),
  );
  return run.send(
    'form page',
    'read',
    port,
    { path: buildUrl(`/jsonapi/node/${d.bundle}/${d.id}`, formParams(d.bundle)), headers: run.auth(d.handlerId) },
    due,
    true,
  );
}

/** What the form page's autosave sends at the i-th save of a form: the fields typed since the save before. */
function typed(bundle: MonthlyBundle, i: number, month: string): Record<string, unknown> {
  if (bundle === 'apc_form_1') {
    const h = { number: '0', size: 1, substandard: false, varieties: DEMO_VARIETIES.slice(0, 2) };
    return i === 0 ? form1Figures(h, month, Math.round) : { field_receipts_native: 50_000 + i * 250 };
  }
  if (bundle === 'apc_form_2')
    return i === 0
      ? {
          field_no_change_flag: false,
          field_mexico_ship_date: `${month}-05`,
          field_mexico_inshell_lb: 1_000,
          field_mexico_shelled_lb: 0,
        }
      : { field_mexico_inshell_lb: 1_000 + i * 100 };
  return i === 0 ? { field_no_change_flag: false } : { field_no_change_flag: i % 2 === 1 };
}

/** Saves (guarded by the `changed` of the answer before, as the web app does), then certification. */
async function editAndCertify(
  run: LoadRun,
  port: number,
  d: { bundle: MonthlyBundle; id: string; handlerId: string },
  changed: unknown,
  saves: Array<Record<string, unknown>>,
  certifyOp: string,
): Promise<void> {
  const type = `node--${d.bundle}`;
  const path = `/jsonapi/node/${d.bundle}/${d.id}`;
  for (const attributes of saves) {
    const saved = await run.send(
      `draft save ${d.bundle}`,
      'save',
      port,
      write(run, d.handlerId, 'PATCH', path, writeDocument(type, attributes, { id: d.id, changed })),
      run.afterThink(),
      true,
    );
    changed = saved.json?.data?.attributes?.changed ?? changed;
    // The web app reads the form and the packages again after a save.
    run.beside(formPage(run, port, d, performance.now()));
  }
  await run.send(
    certifyOp,
    'certify',
    port,
    write(
      run,
      d.handlerId,
      'PATCH',
      path,
      writeDocument(
        type,
        { field_certified: true, field_certification_name: 'Bench', field_certification_title: 'Officer' },
        { id: d.id },
      ),
    ),
    run.afterThink(),
  );
}

const filing =
  (bundle: MonthlyBundle): Session =>
  async (run, due) => {
    if (run.readOnly) {
      const all = run.fx.drafts[bundle];
      await formPage(run, run.server(), all[Math.floor(run.random() * all.length)], due);
      return;
    }
    const d = run.takeDraft(bundle);
    if (!d) {
      run.ranOut[bundle] = (run.ranOut[bundle] ?? 0) + 1;
      return amendment(run, due);
    }
    const port = run.server();
    const form = await formPage(run, port, d, due);
    const saves = Array.from({ length: SAVES_PER_FORM[bundle] }, (_, i) => typed(bundle, i, run.fx.period.month));
    const certifyOp = bundle === 'apc_form_1' ? 'certify form 1 (PDF, invoice)' : `certify ${bundle} (PDF)`;
    await editAndCertify(run, port, d, form.json?.data?.attributes?.changed, saves, certifyOp);
  };

/** An amendment of an earlier form 1, as the form page's Amend button sends it, edited once and certified. */
const amendment: Session = async (run, due) => {
  const a = run.takeAmendable();
  if (!a) {
    run.ranOut.amendment = (run.ranOut.amendment ?? 0) + 1;
    return;
  }
  const port = run.server();
  const type = 'node--apc_form_1';
  const made = await run.send(
    'amend: new version',
    'save',
    port,
    write(
      run,
      a.handlerId,
      'POST',
      '/jsonapi/node/apc_form_1',
      writeDocument(
        type,
        { field_amendment_reason: 'Late weigh tickets' },
        { relationships: { field_amendment_of: ref(type, a.id) } },
      ),
    ),
    due,
    true,
  );
  const id = made.json?.data?.id;
  if (!id) return;
  await run.send(
    'amend: add to package',
    'save',
    port,
    write(run, a.handlerId, 'POST', `/jsonapi/node/reporting_forms_package/${a.packageId}/relationships/field_form_1`, {
      data: [ref(type, id)],
    }),
    performance.now(),
  );
  const d = { bundle: 'apc_form_1' as const, id, handlerId: a.handlerId };
  const form = await formPage(run, port, d, performance.now());
  const native = Number(form.json?.data?.attributes?.field_receipts_native ?? 0);
  await editAndCertify(
    run,
    port,
    d,
    form.json?.data?.attributes?.changed,
    [{ field_receipts_native: native + 500 }],
    'certify amendment (PDF, invoice)',
  );
};

/** A council endpoint's address with the parameters given (as the web app's client leaves out the empty ones). */
function councilPath(path: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  return `${path}?${query.toString()}`;
}

const read =
  (op: string, path: (run: LoadRun, handlerId: string) => string, staffAccept?: string): Session =>
  async (run, due) => {
    const handlerId = run.randomHandler();
    const headers = staffAccept ? { ...run.auth(null), accept: staffAccept } : run.auth(handlerId);
    await run.send(op, 'read', run.server(), { path: path(run, handlerId), headers }, due);
  };

const SESSIONS_BY_KIND: Record<SessionName, Session> = {
  'sign-in': async (run, due) => {
    const handlerId = run.randomHandler();
    const port = run.server();
    const res = await run.send(
      'sign-in (token)',
      'sign-in',
      port,
      {
        method: 'POST',
        path: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: passwordGrant(run.fx.userOf.get(handlerId)!),
      },
      due,
      true,
    );
    const token = (res.json as { access_token?: string } | undefined)?.access_token;
    if (token) await dashboard(run, port, handlerId, performance.now(), token);
  },
  dashboard: async (run, due) => {
    await dashboard(run, run.server(), run.randomHandler(), due);
  },
  'form 1 filing': filing('apc_form_1'),
  'form 2 filing': filing('apc_form_2'),
  'form 3 filing': filing('apc_form_3'),
  amendment,
  'invoices page': read('invoices page', (_, h) => buildUrl('/jsonapi/node/invoice', invoicesParams(h))),
  // The board page's read (its first page, polled) and its CSV button (web/src/features/council-ops): the open
  // month, no status filter, no search.
  'board poll': read(
    'submissions board',
    (run) => councilPath('/api/council/board', boardPageParams({ periodId: run.fx.period.id })),
    'application/json',
  ),
  'board CSV': read(
    'submissions board CSV',
    (run) => councilPath('/api/council/board.csv', boardScopeParams({ periodId: run.fx.period.id })),
    'text/csv',
  ),
};
