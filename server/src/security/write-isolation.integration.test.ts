import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ResourceDef, Row } from '../jsonapi/resource.js';
import { checksumDiff, databaseChecksum } from '../reliability/checksum.js';
import { allResources } from '../resources/index.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { ensureDocumentRows } from '../test-support/jsonapi-fixtures.js';
import { WriteModel, type Outcome, type Writer } from './write-model.js';
import { createClient } from '../api-clients/clients.js';

/**
 * Write isolation, generated from the resource registry and checked against an independent model (write-model.ts):
 * for every writer (alice and bob of handler 101, carol of 102, staff, an API client of 101) x every type x PATCH and
 * DELETE x a record of each kind of target (its own, a colleague's, another handler's, staff-only; one of each state:
 * draft, certified, cancelled), each step of a form's life (certify, countersign, cancel), every to-one relationship of
 * its records re-pointed at another handler's record (or another season), and every POST linking a relationship to
 * another handler's record, the answer must be the model's. All refused writes run first; a checksum of every row of
 * every table must then be unchanged. The allowed ones run after.
 */
/** `robot`: an API client of handler 101 with write scope (docs/API-CLIENTS.md). */
type Who = 'alice' | 'bob' | 'carol' | 'staff' | 'robot';
const WHO: Who[] = ['alice', 'bob', 'carol', 'staff', 'robot'];

interface Case {
  label: string;
  who: Who;
  method: string;
  url: string;
  body?: unknown;
  outcome: Outcome;
  pointer?: string;
  step?: string;
}

/** The steps of a form's life beyond editing, as the web app sends them. */
const STEPS = {
  certify: { field_certified: true, field_certification_name: 'Matrix Tester' },
  countersign: {
    field_receiving_certified: true,
    field_receiving_certification_name: 'Matrix Tester',
    field_receiving_certification_title: 'Tester',
  },
  cancel: { field_form_activity: 'cancelled' },
};

const STATUSES: Record<Outcome, number[]> = {
  done: [200, 201, 204],
  refused: [403, 404],
  'no such write': [405],
  'wrong state': [409],
  fixed: [422],
};
const itemUrl = (def: ResourceDef, id: string) => `/jsonapi/${def.entity}/${def.bundle}/${id}`;
const link = (type: string, id: string) => ({ data: { type, id } });

describeEachDatabase('write isolation (generated)', (target) => {
  let d: DemoApp;
  const rows = new Map<string, Map<string, Row>>();
  const writers = {} as Record<Who, Writer>;
  const rowOf = (type: string, id: string) => rows.get(type)?.get(id);
  const model = new WriteModel(rowOf);
  const results = new Map<Outcome, number>();
  let tokens = {} as Record<Who, string>;

  beforeAll(async () => {
    d = await demoApp(target);
    await ensureDocumentRows(d.ctx);
    const seasons = (await d.ctx.db.selectFrom('seasons').select('id').orderBy('season_start_date').execute()).map(
      (s) => String(s.id),
    );
    // Drafts of each kind the demo lacks: a form 4 of each handler, a colleague's form 5, draft form 3 rows of 101 and
    // 102.
    const post = async (who: Who, type: string, body: Record<string, unknown>) => {
      const def = allResources.find((x) => x.type === type)!;
      const r = await api(
        d.app,
        d.tokens[who as Exclude<Who, 'robot'>],
        'POST',
        `/jsonapi/${def.entity}/${def.bundle}`,
        { data: { type, ...body } },
      );
      expect(r.status, `${who} POST ${type}: ${JSON.stringify(r.body)}`).toBe(201);
    };
    const transfer = { field_responsible_handler: 'transferring', field_first_transfer_month: '2024-11' };
    await post('alice', 'node--apc_form_4', {
      attributes: transfer,
      relationships: {
        field_receiving_handler: link('node--handler', d.handlers['102']),
        field_season: link('node--season', seasons[0]),
      },
    });
    await post('carol', 'node--apc_form_4', {
      attributes: transfer,
      relationships: {
        field_receiving_handler: link('node--handler', d.handlers['103']),
        field_season: link('node--season', seasons[0]),
      },
    });
    const have = new Set(
      (
        await d.ctx.db
          .selectFrom('apc_form_5')
          .select('season_id')
          .where('handler_id', '=', d.handlers['101'])
          .execute()
      ).map((r) => String(r.season_id)),
    );
    await post('bob', 'node--apc_form_5', {
      attributes: { field_shelled_inventory: 1 },
      relationships: {
        field_season: link(
          'node--season',
          seasons.find((s) => !have.has(s))!,
        ),
      },
    });
    for (const [who, handler] of [
      ['alice', '101'],
      ['carol', '102'],
    ] as const) {
      const draft = await d.ctx.db
        .selectFrom('apc_form_3')
        .select('id')
        .where('handler_id', '=', d.handlers[handler])
        .where('form_status', '=', 'draft')
        .executeTakeFirstOrThrow();
      await post(who, 'node--export_by_country', {
        attributes: { field_country: 'CA', field_inshell_lb: 10, field_shelled_lb: 1, field_substandard_lb: 0 },
        relationships: { field_form: link('node--apc_form_3', String(draft.id)) },
      });
    }
    for (const def of allResources) {
      const query =
        def.type === 'file--file'
          ? d.ctx.db.selectFrom('files').select(['id', 'owner_type', 'owner_id'])
          : d.ctx.db.selectFrom(def.table).selectAll();
      rows.set(def.type, new Map((await query.execute()).map((r) => [String(r.id), r as Row])));
    }
    const { row: robot, secret } = await createClient(d.ctx.db, {
      handlerId: d.handlers['101'],
      name: 'Matrix robot',
      scope: 'read write',
      createdBy: 'test',
      now: d.ctx.clock.now(),
    });
    const issued = await d.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: robot.id,
        client_secret: secret,
      }).toString(),
    });
    tokens = { ...d.tokens, robot: issued.json().access_token as string };
    writers.robot = { who: 'robot', role: 'handler', userId: robot.id, handlerId: d.handlers['101'], client: true };
    // The matrix is not a test of the per-client throttle.
    d.ctx.config.apiClients.perMinute = 1_000_000;
    for (const who of WHO.filter((x) => x !== 'robot')) {
      const u = [...rows.get('user--user')!.values()].find((x) => x.name === who)!;
      writers[who] = {
        who,
        role: who === 'staff' ? 'staff' : 'handler',
        userId: String(u.id),
        handlerId: (u.handler_id as string | null) ?? null,
      };
    }
  });

  afterAll(async () => {
    console.log(`[${target.dialect}] write isolation: ${[...results].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    await d?.close();
  });

  /** One record per kind of target and state, so each kind is tried without trying every row. */
  const picks = (w: Writer, def: ResourceDef): Row[] => {
    const seen = new Set<string>();
    return [...(rows.get(def.type)?.values() ?? [])].filter((r) => {
      const parent = r.form_id
        ? rowOf(
            def.relationships.field_form?.kind === 'one' ? def.relationships.field_form.target : '',
            String(r.form_id),
          )
        : undefined;
      const key = [
        WriteModel.ownerLabel(w, def.type, r),
        r.form_status,
        r.form_activity,
        parent?.form_status,
        r.receiving_handler_id === w.handlerId,
      ].join('|');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };

  /**
   * Another record for a relationship to point at: another handler's (not the writer's, not the current one), or
   * another season.
   */
  const otherTarget = (w: Writer, targetType: string, current: unknown): string | undefined => {
    const candidates = [...(rows.get(targetType)?.values() ?? [])].filter((r) => r.id !== current);
    const foreign = candidates.find(
      (r) =>
        (targetType === 'node--handler' ? r.id : r.handler_id) !== (w.handlerId ?? current) &&
        (targetType === 'node--handler' ? r.id : r.handler_id) !== undefined,
    );
    return String((foreign ?? candidates[0])?.id ?? '') || undefined;
  };

  function cases(): Case[] {
    const out: Case[] = [];
    for (const who of WHO) {
      const w = writers[who];
      for (const def of allResources) {
        for (const row of picks(w, def)) {
          const id = String(row.id);
          const label = `${who} ${WriteModel.ownerLabel(w, def.type, row)} ${def.type} ${id} (${String(row.form_status ?? '')}${row.form_activity ? `/${String(row.form_activity)}` : ''})`;
          out.push({
            label: `PATCH ${label}`,
            who,
            method: 'PATCH',
            url: itemUrl(def, id),
            body: { data: { type: def.type, id, attributes: {} } },
            outcome: model.write(w, 'PATCH', def.type, row),
          });
          out.push({
            label: `DELETE ${label}`,
            who,
            method: 'DELETE',
            url: itemUrl(def, id),
            outcome: model.write(w, 'DELETE', def.type, row),
          });
          for (const [step, attributes] of Object.entries(STEPS)) {
            const outcome = model.step(w, def.type, row, step as keyof typeof STEPS);
            // A monthly or year-end form's certification may also fail on its figures (422): tried where refused only.
            if (!outcome || (outcome === 'done' && def.type !== 'node--apc_form_4')) continue;
            out.push({
              label: `${step} ${label}`,
              who,
              method: 'PATCH',
              url: itemUrl(def, id),
              step,
              body: { data: { type: def.type, id, attributes } },
              outcome,
            });
          }
          for (const [field, rel] of Object.entries(def.relationships)) {
            if (rel.kind !== 'one' || !rel.writable) continue;
            const to = otherTarget(w, rel.target, row[rel.column]);
            if (!to) continue;
            out.push({
              label: `PATCH ${label} ${field} -> ${to}`,
              who,
              method: 'PATCH',
              url: itemUrl(def, id),
              pointer: `/data/relationships/${field}`,
              body: { data: { type: def.type, id, relationships: { [field]: link(rel.target, to) } } },
              outcome: model.relink(w, def.type, row, field),
            });
          }
        }
        // A new record linked to another handler's record.
        if (w.role === 'staff') continue;
        for (const [field, rel] of Object.entries(def.relationships)) {
          if (rel.kind !== 'one' || !rel.writable || rel.target === 'node--season') continue;
          if (def.type === 'node--apc_form_4' && field === 'field_receiving_handler') continue; // a transfer names its receiver
          const to = otherTarget(w, rel.target, w.handlerId);
          if (!to) continue;
          out.push({
            label: `POST ${who} ${def.type} ${field} -> ${to}`,
            who,
            method: 'POST',
            url: `/jsonapi/${def.entity}/${def.bundle}`,
            body: { data: { type: def.type, relationships: { [field]: link(rel.target, to) } } },
            outcome: 'refused',
          });
        }
      }
    }
    return out;
  }

  const run = async (c: Case): Promise<string | null> => {
    const r = await api(d.app, tokens[c.who], c.method, c.url, c.body);
    results.set(c.outcome, (results.get(c.outcome) ?? 0) + 1);
    const expected = c.method === 'POST' && c.outcome === 'refused' ? [403] : STATUSES[c.outcome];
    if (!expected.includes(r.status))
      return `${c.label}: expected ${c.outcome} (${expected.join('/')}), got ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
    if (c.outcome === 'fixed' && !JSON.stringify(r.body.errors).includes(c.pointer!))
      return `${c.label}: 422 without ${c.pointer}`;
    return null;
  };

  it("refuses what the model refuses, with the model's status, and changes nothing; then does what it allows", async () => {
    const all = cases();
    const refused = all.filter((c) => c.outcome !== 'done');
    const allowed = all.filter((c) => c.outcome === 'done');
    const before = await databaseChecksum(d.ctx.db, d.ctx.dialect);
    const problems: string[] = [];
    for (let i = 0; i < refused.length; i += 4)
      problems.push(...(await Promise.all(refused.slice(i, i + 4).map(run))).filter((p): p is string => p !== null));
    expect(problems).toEqual([]);
    expect(checksumDiff(before, await databaseChecksum(d.ctx.db, d.ctx.dialect))).toEqual({});
    // Allowed writes one at a time: edits, then each step in the order of a form's life, then deletions; a step or a
    // deletion once per record (a second writer would find it already done).
    const once = (cases: Case[]) => [...new Map(cases.map((x) => [x.url, x])).values()];
    const ordered = [
      ...allowed.filter((x) => x.method === 'PATCH' && !x.step),
      ...['certify', 'countersign', 'cancel'].flatMap((step) => once(allowed.filter((x) => x.step === step))),
      ...once(allowed.filter((x) => x.method === 'DELETE')),
    ];
    for (const c of ordered) {
      const p = await run(c);
      if (p) problems.push(p);
    }
    expect(problems).toEqual([]);
    // Every kind of outcome was tried, for every kind of target.
    for (const outcome of ['done', 'refused', 'no such write', 'wrong state', 'fixed'] as Outcome[])
      expect(results.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    for (const kind of ['own', 'colleague', 'other handler', 'staff-only'])
      expect(
        all.some((c) => c.label.includes(` ${kind} `)),
        kind,
      ).toBe(true);
    for (const step of Object.keys(STEPS))
      expect(allowed.some((c) => c.step === step) && refused.some((c) => c.step === step), step).toBe(true);
    expect(all.length).toBeGreaterThan(allResources.length * WHO.length);
  });
});
