import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { pdfText as textOf } from '../test-support/pdf.js';

/**
 * The whole life of a form 1 through the API, as alice files it: the acceptance test of the reporting workflow.
 */
async function pdfText(app: DemoApp['app'], token: string, fileId: string): Promise<string> {
  const file = await api(app, token, 'GET', `/jsonapi/file/file/${fileId}`);
  expect(file.status).toBe(200);
  const url = new URL(file.body.data.attributes.uri.url as string);
  const download = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(download.statusCode).toBe(200);
  expect(download.headers['content-type']).toBe('application/pdf');
  return textOf(download.rawPayload);
}

describeEachDatabase('form 1 from draft to amended', (target) => {
  let demo: DemoApp;
  let alice: string;
  let formId: string;
  beforeAll(async () => {
    demo = await demoApp(target);
    alice = demo.tokens.alice;
    const packages = await api(
      demo.app,
      alice,
      'GET',
      '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=1&include=field_form_1',
    );
    formId = packages.body.data[0].relationships.field_form_1.data.at(-1).id;
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('is a draft of the current month to begin with', async () => {
    const form = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${formId}?include=field_reporting_period`);
    expect(form.body.data.attributes.field_form_status).toBe('draft');
    expect(form.body.included[0].attributes.field_period_month).toBe('2026-11');
  });

  it('refuses invalid values with one 422 per field and changes nothing', async () => {
    const before = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
    const response = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
      data: {
        type: 'node--apc_form_1',
        id: formId,
        attributes: {
          field_receipts_native: -5,
          field_receipts_total: 100,
          field_shipments_inshell: 'many',
          field_receipts_substandard: 12,
        },
      },
    });
    expect(response.status).toBe(422);
    const pointers = response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/field_receipts_native',
      '/data/attributes/field_receipts_total',
      '/data/attributes/field_shipments_inshell',
    ]);
    const retry = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
      data: {
        type: 'node--apc_form_1',
        id: formId,
        attributes: { field_receipts_native: -5 },
      },
    });
    expect(retry.status).toBe(422);
    expect(retry.body.errors[0].source.pointer).toBe('/data/attributes/field_receipts_native');
    const after = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
    expect(after.body.data.attributes).toEqual(before.body.data.attributes);
  });

  it('saves a draft, computes totals and the assessment, then certifies with a PDF and an invoice', async () => {
    const saved = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
      data: {
        type: 'node--apc_form_1',
        id: formId,
        attributes: {
          field_receipts_by_variety: [
            { variety: 'Desirable', pounds: 120000 },
            { variety: 'Stuart', pounds: 45500 },
          ],
          field_receipts_native: 30000,
          field_receipts_substandard: 2000,
          field_shipments_inshell: 80000,
          field_shipments_shelled: 15000,
          field_inventory_inshell: 500000,
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const attrs = saved.body.data.attributes;
    expect(attrs.field_receipts_improved).toBe(165500);
    expect(attrs.field_receipts_total).toBe(197500);
    // November 2026: $0.01 per pound improved, nothing on native and substandard.
    expect(attrs.field_assessment_due).toBe('1655.00');
    // Each basis on its own: 80,000 lb inshell and 15,000 lb shelled are never added into one figure.
    expect(attrs.field_shipments_inshell_ytd).toBeGreaterThanOrEqual(80000);
    expect(attrs.field_shipments_shelled_ytd).toBeGreaterThanOrEqual(15000);
    expect(attrs).not.toHaveProperty('field_shipments_total');

    const certified = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
      data: {
        type: 'node--apc_form_1',
        id: formId,
        attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
      },
    });
    expect(certified.status, JSON.stringify(certified.body)).toBe(200);
    expect(certified.body.data.attributes.field_form_status).toBe('certified');
    expect(certified.body.data.attributes.field_certification_datetime).toBe('2026-11-22T12:00:00+00:00');
    const pdfId = certified.body.data.relationships.field_form_1_pdf.data.id;
    const text = await pdfText(demo.app, alice, pdfId);
    expect(text).toContain('165,500');
    expect(text).toContain('Alice Moreno');

    const invoices = await api(demo.app, alice, 'GET', `/jsonapi/node/invoice?filter[field_form_1.id]=${formId}`);
    expect(invoices.body.data).toHaveLength(1);
    expect(invoices.body.data[0].attributes.field_amount_due).toBe('1655.00');
    expect(invoices.body.data[0].attributes.field_due_date).toBe('2026-12-10');
  });

  it('never changes a certified form', async () => {
    const response = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
      data: {
        type: 'node--apc_form_1',
        id: formId,
        attributes: { field_receipts_native: 1 },
      },
    });
    expect(response.status).toBe(409);
  });

  it('amends, certifies the amendment, supersedes the earlier version and adjusts the invoice', async () => {
    const amendment = await api(demo.app, alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: {
          field_receipts_by_variety: [
            { variety: 'Desirable', pounds: 130000 },
            { variety: 'Stuart', pounds: 45500 },
          ],
          field_amendment_reason: 'Late weigh tickets',
        },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: formId } } },
      },
    });
    expect(amendment.status, JSON.stringify(amendment.body)).toBe(201);
    const newId = amendment.body.data.id;
    expect(amendment.body.data.attributes.field_amendment_number).toBe(1);
    expect(amendment.body.data.attributes.field_receipts_native).toBe(30000);
    expect(amendment.body.data.attributes.field_assessment_due).toBe('1755.00');

    // The web app then adds it to the package, as the spec's call sequence does: accepted, nothing added twice.
    const pkg = amendment.body.data.relationships.field_reporting_forms_package.data.id;
    const link = await api(
      demo.app,
      alice,
      'POST',
      `/jsonapi/node/reporting_forms_package/${pkg}/relationships/field_form_1`,
      { data: [{ type: 'node--apc_form_1', id: newId }] },
    );
    expect(link.status).toBe(204);

    const certified = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${newId}`, {
      data: {
        type: 'node--apc_form_1',
        id: newId,
        attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
      },
    });
    expect(certified.status, JSON.stringify(certified.body)).toBe(200);
    const text = await pdfText(demo.app, alice, certified.body.data.relationships.field_form_1_pdf.data.id);
    expect(text).toMatch(/AMENDMENT 1/i);

    const versions = await api(
      demo.app,
      alice,
      'GET',
      `/jsonapi/node/reporting_forms_package/${pkg}?include=field_form_1`,
    );
    expect(versions.body.data.relationships.field_form_1.data.map((d: { id: string }) => d.id)).toEqual([
      formId,
      newId,
    ]);
    const statuses = Object.fromEntries(
      versions.body.included.map((f: { id: string; attributes: { field_form_status: string } }) => [
        f.id,
        f.attributes.field_form_status,
      ]),
    );
    expect(statuses).toEqual({ [formId]: 'superseded', [newId]: 'certified' });

    const invoices = await api(
      demo.app,
      alice,
      'GET',
      `/jsonapi/node/invoice?filter[field_reporting_period.id]=${versions.body.data.relationships.field_reporting_period.data.id}`,
    );
    expect(invoices.body.data).toHaveLength(1);
    expect(invoices.body.data[0].attributes.field_amount_due).toBe('1755.00');
    expect(invoices.body.data[0].relationships.field_form_1.data.id).toBe(newId);
    const old = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
    expect(old.status).toBe(200);
    expect(old.body.data.attributes.field_assessment_due).toBe('1655.00');
  });
});

describeEachDatabase('two people saving one draft', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('lets one win and tells the other with 409, losing nothing silently', async () => {
    const packages = await api(
      demo.app,
      demo.tokens.carol,
      'GET',
      '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=1',
    );
    const formId = packages.body.data[0].relationships.field_form_1.data.at(-1).id;
    const form = await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
    const changed = form.body.data.attributes.changed;
    const save = (token: string, pounds: number) =>
      api(demo.app, token, 'PATCH', `/jsonapi/node/apc_form_1/${formId}`, {
        data: {
          type: 'node--apc_form_1',
          id: formId,
          attributes: { field_receipts_native: pounds },
          meta: { changed },
        },
      });
    const results = await Promise.all([save(demo.tokens.carol, 111), save(demo.tokens.staff, 222)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    const now = await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
    expect(now.body.data.attributes.field_receipts_native).toBe(winner.body.data.attributes.field_receipts_native);
  });
});
