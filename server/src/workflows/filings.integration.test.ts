import { DUPLICATE_EXPORT_COUNTRY } from '@pecan/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, councilCall } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import type { DemoApp } from '../test-support/demo.js';
import { demoSeason, fileForm4ToDave } from '../test-support/filings-fixture.js';
import { openPeriod } from './seasons.js';

const STAFF = { userId: 'test', name: 'staff', role: 'staff' as const, handlerId: null };

describeEachDatabase('filings beyond form 1', (target) => {
  let demo: DemoApp;
  let currentSeason: string;
  beforeAll(async () => {
    ({ demo, currentSeason } = await demoSeason(target));
  });
  afterAll(async () => {
    await demo?.close();
  });

  const currentPackage = async (token: string) => {
    const r = await api(
      demo.app,
      token,
      'GET',
      '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=1',
    );
    return r.body.data[0];
  };

  it('opens a period once: running it again creates nothing twice', async () => {
    const a = { ctx: demo.ctx, viewer: STAFF };
    const first = await openPeriod(a, '2026-12');
    expect(first.packagesCreated).toBe(3);
    const again = await openPeriod(a, '2026-12');
    expect(again).toEqual({ periodId: first.periodId, packagesCreated: 0 });
    const period = await demo.ctx.db
      .selectFrom('reporting_periods')
      .selectAll()
      .where('id', '=', first.periodId)
      .executeTakeFirstOrThrow();
    // 10 January 2027 is a Sunday: due the next business day.
    expect(period.due_date).toBe('2027-01-11');
  });

  it('adds, changes and removes form 3 rows while a draft, with totals kept up to date', async () => {
    const pkg = await currentPackage(demo.tokens.alice);
    const formId = pkg.relationships.field_form_3.data.at(-1).id;
    const add = (country: string, inshell: number) =>
      api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/export_by_country', {
        data: {
          type: 'node--export_by_country',
          attributes: {
            field_country: country,
            field_inshell_lb: inshell,
            field_shelled_lb: 100,
            field_substandard_lb: 0,
          },
          relationships: { field_form: { data: { type: 'node--apc_form_3', id: formId } } },
        },
      });
    const vietnam = await add('VN', 1000);
    expect(vietnam.status, JSON.stringify(vietnam.body)).toBe(201);
    expect((await add('CA', 500)).status).toBe(201);
    // A country once: a second row for Canada, or a row changed to it, is refused at the country and adds nothing.
    const twice = await add('CA', 7);
    expect(twice.status).toBe(422);
    expect(twice.body.errors[0].source.pointer).toBe('/data/attributes/field_country');
    expect(twice.body.errors[0].detail).toBe(DUPLICATE_EXPORT_COUNTRY);
    const renamed = await api(
      demo.app,
      demo.tokens.alice,
      'PATCH',
      `/jsonapi/node/export_by_country/${vietnam.body.data.id}`,
      { data: { type: 'node--export_by_country', id: vietnam.body.data.id, attributes: { field_country: 'CA' } } },
    );
    expect(renamed.status).toBe(422);
    const invalid = await add('ZZ', 1);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].source.pointer).toBe('/data/attributes/field_country');
    let form = await api(
      demo.app,
      demo.tokens.alice,
      'GET',
      `/jsonapi/node/apc_form_3/${formId}?include=field_exports_by_country`,
    );
    expect(form.body.data.attributes.field_total_inshell_lb).toBe(1500);
    expect(form.body.included).toHaveLength(2);

    const rowId = vietnam.body.data.id;
    const changed = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/export_by_country/${rowId}`, {
      data: {
        type: 'node--export_by_country',
        id: rowId,
        attributes: { field_inshell_lb: 2000 },
      },
    });
    expect(changed.status).toBe(200);
    expect((await api(demo.app, demo.tokens.alice, 'DELETE', `/jsonapi/node/export_by_country/${rowId}`)).status).toBe(
      204,
    );
    form = await api(demo.app, demo.tokens.alice, 'GET', `/jsonapi/node/apc_form_3/${formId}`);
    expect(form.body.data.attributes.field_total_inshell_lb).toBe(500);
    expect(form.body.data.relationships.field_exports_by_country.data).toHaveLength(1);

    const certified = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_3/${formId}`, {
      data: {
        type: 'node--apc_form_3',
        id: formId,
        attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
      },
    });
    expect(certified.status, JSON.stringify(certified.body)).toBe(200);
    expect((await add('MX', 10)).status).toBe(409);
    const carolSees = await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_3/${formId}`);
    expect(carolSees.status).toBe(403);
  });

  it('files a transfer that both parties see, lets the receiver countersign and either cancel, and never deletes it', async () => {
    const filed = await fileForm4ToDave({ demo, currentSeason }, { name: 'Carol Jensen' });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    const id = filed.body.data.id;
    expect(filed.body.data.attributes.field_form_status).toBe('certified');
    expect(filed.body.data.relationships.field_form_4_pdf.data).not.toBeNull();

    const listing = (token: string) =>
      api(
        demo.app,
        token,
        'GET',
        `/jsonapi/node/apc_form_4?filter[field_season.id]=${currentSeason}&filter[field_form_activity]=active`,
      );
    expect((await listing(demo.tokens.dave)).body.data.map((d: { id: string }) => d.id)).toContain(id);
    expect((await listing(demo.tokens.alice)).body.data.map((d: { id: string }) => d.id)).not.toContain(id);

    const notMine = await api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_4', {
      data: {
        type: 'node--apc_form_4',
        attributes: { field_responsible_handler: 'transferring', field_first_transfer_month: '2026-11' },
        relationships: {
          field_transferring_handler: { data: { type: 'node--handler', id: demo.handlers['102'] } },
          field_receiving_handler: { data: { type: 'node--handler', id: demo.handlers['103'] } },
          field_season: { data: { type: 'node--season', id: currentSeason } },
        },
      },
    });
    expect(notMine.status).toBe(403);

    const sign = await api(demo.app, demo.tokens.dave, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: {
        type: 'node--apc_form_4',
        id,
        attributes: {
          field_receiving_certified: true,
          field_receiving_certification_name: 'Dave Okafor',
          field_receiving_certification_title: 'Plant Manager',
        },
      },
    });
    expect(sign.status, JSON.stringify(sign.body)).toBe(200);
    expect(sign.body.data.attributes.field_receiving_certification_datetime).toBe('2026-11-22T12:00:00+00:00');

    const cancel = await api(demo.app, demo.tokens.dave, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: {
        type: 'node--apc_form_4',
        id,
        attributes: { field_form_activity: 'cancelled' },
      },
    });
    expect(cancel.status).toBe(200);
    expect((await listing(demo.tokens.carol)).body.data.map((d: { id: string }) => d.id)).not.toContain(id);
    expect(
      (await api(demo.app, demo.tokens.carol, 'GET', `/jsonapi/node/apc_form_4/${id}`)).body.data.attributes
        .field_form_activity,
    ).toBe('cancelled');
    expect((await api(demo.app, demo.tokens.carol, 'DELETE', `/jsonapi/node/apc_form_4/${id}`)).status).toBe(405);
  });

  it('takes one year-end form per season, checks it before certifying and records the August amendment answer', async () => {
    const create = (season: string) =>
      api(demo.app, demo.tokens.alice, 'POST', '/jsonapi/node/apc_form_5', {
        data: {
          type: 'node--apc_form_5',
          attributes: {
            field_shelled_inventory: 1000,
            field_shelled_halves: 500,
            field_shelled_pieces: 300,
            field_shelled_wip: 100,
            field_shellout_yield: '0.5000',
            field_aug_form_1_amend_reqd: true,
          },
          relationships: { field_season: { data: { type: 'node--season', id: season } } },
        },
      });
    const certify = (id: string, extra: Record<string, unknown> = {}) =>
      api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_5/${id}`, {
        data: {
          type: 'node--apc_form_5',
          id,
          attributes: { ...extra, field_certified: true, field_certification_name: 'Alice Moreno' },
        },
      });

    // The current season (2026-2027) ends on 31 August 2027; the demo clock says November 2026. A draft saves; it
    // cannot be certified before the inventory date, and the refused certification changes nothing.
    const current = await create(currentSeason);
    expect(current.status, JSON.stringify(current.body)).toBe(201);
    expect((await create(currentSeason)).status).toBe(409);
    const early = await certify(current.body.data.id, { field_shelled_wip: 200 });
    expect(early.status).toBe(409);
    expect(early.body.errors[0].detail).toBe(
      'The year-end form of 2026-2027 reports the inventory held on August 31, 2027: it can be certified from that day.',
    );
    const unchanged = await api(demo.app, demo.tokens.alice, 'GET', `/jsonapi/node/apc_form_5/${current.body.data.id}`);
    expect(unchanged.body.data.attributes).toMatchObject({ field_shelled_wip: 100, field_certified: false });

    // 2023-2024 has ended: its form is checked before certifying, then certified.
    const past = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/seasons', { start_year: 2023 });
    expect(past.status, past.text).toBe(201);
    const created = await create(past.body.data.id);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id;
    const refused = await certify(id);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.errors)).toContain('field_shelled');
    const certified = await certify(id, { field_shelled_wip: 200 });
    expect(certified.status, JSON.stringify(certified.body)).toBe(200);
    expect(certified.body.data.attributes.field_aug_form_1_amend_reqd).toBe(true);
    expect(certified.body.data.attributes.field_total_inventory_inshell_basis).toBe(2000);
  });

  it("keeps one packet confirmation per handler and season, with the spec's messages for what is missing", async () => {
    const post = (relationships: Record<string, unknown>) =>
      api(demo.app, demo.tokens.bob, 'POST', '/jsonapi/node/handler_packet_confirmation', {
        data: {
          type: 'node--handler_packet_confirmation',
          attributes: { field_handler_packet_confirm: true, field_certification_name: 'bob' },
          relationships,
        },
      });
    const missing = await post({ field_handler: { data: { type: 'node--handler', id: demo.handlers['101'] } } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].detail).toBe('Missing current season ID.');
    const handler = {
      field_handler: { data: { type: 'node--handler', id: demo.handlers['101'] } },
      field_season: { data: { type: 'node--season', id: currentSeason } },
    };
    const created = await post(handler);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.attributes.title).toMatch(/^Handler Packet Confirmation-101-2026-2027$/);
    expect((await post(handler)).status).toBe(409);
    const foreign = await post({
      ...handler,
      field_handler: { data: { type: 'node--handler', id: demo.handlers['102'] } },
    });
    expect(foreign.status).toBe(403);
  });
});
