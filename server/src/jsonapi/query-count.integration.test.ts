import { afterAll, beforeAll, expect, it } from 'vitest';
import { countQueries } from '../db/database.js';
import { newId } from '../lib/time.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * A listing costs a fixed number of SQL statements whatever its size: 200 invoices with their includes take as
 * many queries as 2, and a season's packages with forms, PDFs and periods as many as one package. No N+1.
 */
describeEachDatabase('query count', (target) => {
  let d: DemoApp;
  let season: string;

  /** The request's SQL statement count and its response. */
  const counted = async (url: string) => {
    const { result, queries } = await countQueries(() => api(d.app, d.tokens.staff, 'GET', url));
    expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    return { body: result.body, queries };
  };

  beforeAll(async () => {
    d = await demoApp(target);
    // Copies of the demo's invoices (as staff would have after more filings) until there are at least 200.
    const existing = await d.ctx.db.selectFrom('invoices').selectAll().orderBy('invoice_number').execute();
    const copies = Array.from({ length: Math.max(0, 205 - existing.length) }, (_, i) => {
      const source = existing[i % existing.length];
      return {
        ...source,
        id: newId(),
        invoice_number: `${String(source.invoice_number)}-C${i}`,
        title: `Invoice ${String(source.invoice_number)}-C${i}`,
      };
    });
    for (let i = 0; i < copies.length; i += 50)
      await d.ctx.db
        .insertInto('invoices')
        .values(copies.slice(i, i + 50))
        .execute();
    const s = await d.ctx.db
      .selectFrom('seasons')
      .select('id')
      .where('title', '=', '2025-2026')
      .executeTakeFirstOrThrow();
    season = String(s.id);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('200 invoices of every handler with their includes take as many queries as 2', async () => {
    const total = await d.ctx.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBeGreaterThanOrEqual(200);
    const include =
      'include=field_handler,field_reporting_period.field_season,field_form_1.field_form_1_pdf,field_invoice_pdf';
    const many = await counted(`/jsonapi/node/invoice?page[limit]=200&${include}`);
    const two = await counted(`/jsonapi/node/invoice?page[limit]=2&${include}`);
    expect(many.body.data).toHaveLength(200);
    expect(two.body.data).toHaveLength(2);
    const handlers = new Set(
      many.body.data.map(
        (i: { relationships: { field_handler: { data: { id: string } } } }) => i.relationships.field_handler.data.id,
      ),
    );
    expect(handlers.size).toBe(3);
    const types = (body: { included: Array<{ type: string }> }) => new Set(body.included.map((i) => i.type));
    expect([...types(many.body)].sort()).toEqual([
      'file--file',
      'node--apc_form_1',
      'node--handler',
      'node--reporting_period',
      'node--season',
    ]);
    expect([...types(two.body)].sort()).toEqual([...types(many.body)].sort());
    expect(many.body.included.length).toBeGreaterThan(two.body.included.length * 10);
    console.log(
      `[${target.dialect}] invoices with includes: 200 rows -> ${many.queries} queries, 2 rows -> ${two.queries} queries`,
    );
    expect(many.queries).toBe(two.queries);
    expect(many.queries).toBeLessThan(15);
  });

  it("all of a season's packages with forms 1/2/3, their PDFs and periods take as many queries as one package", async () => {
    const include =
      'include=field_reporting_period,field_form_1,field_form_2,field_form_3,field_form_1.field_form_1_pdf,field_form_2.field_form_2_pdf,field_form_3.field_form_3_pdf';
    const base = `/jsonapi/node/reporting_forms_package?filter[field_reporting_period.field_season.id]=${season}&sort=-field_reporting_period.field_due_date&${include}`;
    const all = await counted(`${base}&page[limit]=500`);
    const one = await counted(`${base}&page[limit]=1`);
    expect(all.body.data).toHaveLength(36); // three handlers, twelve months
    expect(one.body.data).toHaveLength(1);
    const count = (body: { included: Array<{ type: string }> }, type: string) =>
      body.included.filter((i) => i.type === type).length;
    expect(count(all.body, 'node--apc_form_1')).toBe(37); // one amendment
    expect(count(all.body, 'file--file')).toBe(37 + 36 + 36);
    expect(count(all.body, 'node--reporting_period')).toBe(12);
    expect(count(one.body, 'file--file')).toBe(3);
    console.log(
      `[${target.dialect}] season packages with forms, PDFs, periods: 36 packages -> ${all.queries} queries, 1 package -> ${one.queries} queries`,
    );
    expect(all.queries).toBe(one.queries);
    // Token; packages; forms 1, 2 and 3; form 2 and 3 rows (linkage); periods; the three forms' PDFs in one query.
    expect(all.queries).toBe(9);
  });
});
