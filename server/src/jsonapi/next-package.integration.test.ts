import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * The form page's 'Next package' (web/src/lib/portal/package-params.ts, nextPackageParams): the handler's package of
 * the latest period due before the open form's, with its forms' ids. The spec's rule is "the following one in the
 * season, or the first of the next season" in the list of packages newest first, which this one read must give for
 * every package of a handler, across seasons, and nothing after the oldest.
 */
function nextPackageQuery(handlerId: string, dueBefore: string): string {
  const p = new URLSearchParams();
  p.set('filter[field_handler.id]', handlerId);
  p.set('filter[field_reporting_period.field_due_date][value]', dueBefore);
  p.set('filter[field_reporting_period.field_due_date][operator]', '<');
  p.set('page[limit]', '1');
  p.set('sort', '-field_reporting_period.field_due_date');
  p.set('fields[node--reporting_forms_package]', 'field_form_1,field_form_2,field_form_3');
  return `/jsonapi/node/reporting_forms_package?${p.toString()}`;
}

type Linkage = { data: Array<{ type: string; id: string }> };
type Doc = {
  data: Array<{ id: string; attributes: Record<string, unknown>; relationships: Record<string, Linkage> }>;
  links: { next?: unknown };
};

describeEachDatabase("the form page's Next package", (target) => {
  let d: DemoApp;
  /** Handler 101's packages as the forms list shows them: newest period first, with their season and due date. */
  let list: Array<{ id: string; season: string; due: string }>;

  beforeAll(async () => {
    d = await demoApp(target);
    const rows = await d.ctx.db
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
      .select(['k.id', 'p.season_id', 'p.due_date'])
      .where('k.handler_id', '=', d.handlers['101'])
      .orderBy('p.due_date', 'desc')
      .execute();
    list = rows.map((r) => ({ id: String(r.id), season: String(r.season_id), due: String(r.due_date) }));
  });
  afterAll(async () => {
    await d?.close();
  });

  /** The spec's rule, on the whole list. */
  const bySpec = (index: number) => {
    const after = list.slice(index + 1);
    return (
      after.find((p) => p.season === list[index].season) ?? after.find((p) => p.season !== list[index].season) ?? null
    );
  };

  it('is, for every package of the handler, the one the spec names, and none after the oldest', async () => {
    expect(new Set(list.map((p) => p.season)).size).toBeGreaterThan(1);
    for (const [index, pkg] of list.entries()) {
      const r = await api(d.app, d.tokens.alice, 'GET', nextPackageQuery(d.handlers['101'], pkg.due));
      expect(r.status, r.text).toBe(200);
      const body = r.body as Doc;
      expect(
        body.data.map((p) => p.id),
        `after ${pkg.due}`,
      ).toEqual(bySpec(index) ? [bySpec(index)!.id] : []);
    }
  });

  it("carries the forms' versions as linkage, oldest first, and nothing else", async () => {
    const r = await api(d.app, d.tokens.alice, 'GET', nextPackageQuery(d.handlers['101'], list[0].due));
    const [pkg] = (r.body as Doc).data;
    expect(Object.keys(pkg.relationships).sort()).toEqual(['field_form_1', 'field_form_2', 'field_form_3']);
    expect(pkg.attributes).toEqual({});
    const versions = await d.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('package_id', '=', pkg.id)
      .orderBy('amendment_number')
      .execute();
    expect(pkg.relationships.field_form_1.data.map((f) => f.id)).toEqual(versions.map((v) => String(v.id)));
  });

  it("shows another handler's user none of handler 101's packages", async () => {
    const r = await api(d.app, d.tokens.carol, 'GET', nextPackageQuery(d.handlers['101'], '9999-12-31'));
    expect(r.status).toBe(200);
    expect((r.body as Doc).data).toEqual([]);
  });

  it('refuses an operator it does not know with a 400 naming the parameter', async () => {
    const unknown = nextPackageQuery(d.handlers['101'], list[0].due).replace(
      '%5Boperator%5D=%3C',
      '%5Boperator%5D=LESS',
    );
    const r = await api(d.app, d.tokens.alice, 'GET', unknown);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors)).toContain('filter[field_reporting_period.field_due_date][operator]');
  });
});
