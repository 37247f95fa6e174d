import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * Form 1 against 7 CFR 986.177(a), through the API as alice (handler 101) files it, with figures worked by hand:
 * every flow on its own basis with its previous month and season to date, September's previous month from August
 * of the season before, "No change since last month" carrying the stocks forward, and the year-to-date of later
 * certified months after an earlier month is amended (kept as certified, flagged on the board with the corrected
 * figures, put right by an amendment).
 */
const FLOWS = ['shipments_inshell', 'shipments_shelled', 'interhandler_shipped', 'interhandler_received'] as const;
type Flows = [number, number, number, number];
let receiver = '';
/** The flows as a form 1 takes them: the pounds shipped to other handlers as one line to handler 102. */
const flowAttributes = (f: Flows) => ({
  ...Object.fromEntries(
    FLOWS.filter((name) => name !== 'interhandler_shipped').map((name) => [`field_${name}`, f[FLOWS.indexOf(name)]]),
  ),
  field_interhandler_shipments: f[2] > 0 ? [{ receiving_handler: receiver, pecan_type: 'improved', pounds: f[2] }] : [],
});
const figures = (attrs: Record<string, unknown>, suffix: '' | '_prev_month' | '_ytd') =>
  FLOWS.map((name) => attrs[`field_${name}${suffix}`]);

describeEachDatabase('form 1 on the bases of 986.177(a)', (target) => {
  let demo: DemoApp;
  let alice: string;
  const certifiedId = async (month: string) =>
    String(
      (
        await demo.ctx.db
          .selectFrom('apc_form_1 as f')
          .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
          .select('f.id')
          .where('f.handler_id', '=', demo.handlers['101'])
          .where('p.period_month', '=', month)
          .where('f.form_status', '=', 'certified')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const periodId = async (month: string) =>
    String(
      (
        await demo.ctx.db
          .selectFrom('reporting_periods')
          .select('id')
          .where('period_month', '=', month)
          .executeTakeFirstOrThrow()
      ).id,
    );
  let novemberId: string;

  /** Amends alice's certified form 1 of `month` with these attributes and certifies the amendment. */
  async function amend(month: string, attributes: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await api(demo.app, alice, 'POST', '/jsonapi/node/apc_form_1', {
      data: {
        type: 'node--apc_form_1',
        attributes: {
          ...attributes,
          field_amendment_reason: 'Hand-worked test figures',
          field_certified: true,
          field_certification_name: 'Alice Moreno',
        },
        relationships: { field_amendment_of: { data: { type: 'node--apc_form_1', id: await certifiedId(month) } } },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.attributes.field_form_status).toBe('certified');
    return response.body.data.attributes;
  }

  async function patchNovember(attributes: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await api(demo.app, alice, 'PATCH', `/jsonapi/node/apc_form_1/${novemberId}`, {
      data: { type: 'node--apc_form_1', id: novemberId, attributes },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.attributes;
  }

  async function boardRow(month: string) {
    const board = await api(
      demo.app,
      demo.tokens.staff,
      'GET',
      `/api/council/board?period_id=${await periodId(month)}`,
    );
    expect(board.status).toBe(200);
    return (board.body.data as Array<{ handler_number: string; form: string; stale_year_to_date: unknown }>).filter(
      (r) => r.form === 'apc_form_1',
    );
  }

  beforeAll(async () => {
    demo = await demoApp(target);
    alice = demo.tokens.alice;
    receiver = demo.handlers['102'];
    novemberId = String(
      (
        await demo.ctx.db
          .selectFrom('apc_form_1 as f')
          .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
          .select('f.id')
          .where('f.handler_id', '=', demo.handlers['101'])
          .where('p.period_month', '=', '2026-11')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(async () => {
    await demo?.close();
  });

  describe('in the order of the season', () => {
    it("takes September's previous month from August of the season before, and starts its season to date over", async () => {
      await amend('2026-08', flowAttributes([50_000, 20_000, 3_000, 1_000]));
      const september = await amend('2026-09', flowAttributes([10_000, 4_000, 500, 0]));
      expect(figures(september, '_prev_month')).toEqual([50_000, 20_000, 3_000, 1_000]); // August 2026 (season 2025-2026)
      expect(figures(september, '_ytd')).toEqual([10_000, 4_000, 500, 0]); // September alone
      expect(september).not.toHaveProperty('field_shipments_total');
    });

    it('keeps inshell, shelled, shipped and received apart in October and November', async () => {
      const october = await amend('2026-10', {
        ...flowAttributes([30_000, 6_000, 0, 2_000]),
        field_no_change_flag: false,
        field_inventory_inshell: 400_000,
        field_inventory_shelled: 70_000,
        field_committed_domestic: 100_000,
        field_committed_domestic_shelled: 20_000,
        field_committed_export: 50_000,
        field_committed_export_shelled: 10_000,
        field_under_contract_from_handlers: 5_000,
        field_under_contract_shelled: 1_000,
      });
      expect(figures(october, '_prev_month')).toEqual([10_000, 4_000, 500, 0]); // September
      // 10,000 + 30,000 inshell; 4,000 + 6,000 shelled; 500 + 0 shipped; 0 + 2,000 received
      expect(figures(october, '_ytd')).toEqual([40_000, 10_000, 500, 2_000]);

      const november = await patchNovember({ ...flowAttributes([7_000, 1_000, 0, 0]), field_no_change_flag: false });
      expect(figures(november, '_prev_month')).toEqual([30_000, 6_000, 0, 2_000]); // October
      // 40,000 + 7,000 inshell; 10,000 + 1,000 shelled; 500 + 0; 2,000 + 0
      expect(figures(november, '_ytd')).toEqual([47_000, 11_000, 500, 2_000]);
    });

    it("carries October's inventory and commitments into November when nothing changed, never zeros", async () => {
      const november = await patchNovember({ field_no_change_flag: true, field_inventory_inshell: 0 });
      expect({
        inventory: [november.field_inventory_inshell, november.field_inventory_shelled],
        committed: [
          november.field_committed_domestic,
          november.field_committed_domestic_shelled,
          november.field_committed_export,
          november.field_committed_export_shelled,
        ],
        underContract: [november.field_under_contract_from_handlers, november.field_under_contract_shelled],
      }).toEqual({
        inventory: [400_000, 70_000],
        committed: [100_000, 20_000, 50_000, 10_000],
        underContract: [5_000, 1_000],
      });
      const stored = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${novemberId}`);
      expect(stored.body.data.attributes.field_inventory_inshell).toBe(400_000);
    });
  });

  describe('after an amendment of an earlier month', () => {
    it('keeps the later certified month as certified, and computes November from the current versions', async () => {
      expect(await boardRow('2026-10')).toSatisfy((rows: Array<{ stale_year_to_date: unknown }>) =>
        rows.every((r) => r.stale_year_to_date === null),
      );
      await amend('2026-09', flowAttributes([12_500, 4_000, 500, 0]));
      const october = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_1/${await certifiedId('2026-10')}`);
      expect(figures(october.body.data.attributes, '_ytd')).toEqual([40_000, 10_000, 500, 2_000]); // as certified
      const november = await patchNovember({ field_shipments_inshell: 7_000 });
      // 12,500 (September as amended) + 30,000 + 7,000
      expect(november.field_shipments_inshell_ytd).toBe(49_500);
    });

    it('flags October on the submissions board with the corrected figures', async () => {
      const rows = await boardRow('2026-10');
      expect(rows.find((r) => r.handler_number === '101')?.stale_year_to_date).toEqual([
        { field: 'shipments_inshell_prev_month', certified: 10_000, corrected: 12_500 },
        { field: 'shipments_inshell_ytd', certified: 40_000, corrected: 42_500 }, // 12,500 + 30,000
      ]);
      expect(rows.filter((r) => r.handler_number !== '101').every((r) => r.stale_year_to_date === null)).toBe(true);
    });

    it('clears the flag once October is amended: the amendment recomputes from the current versions', async () => {
      const october = await amend('2026-10', {});
      expect(october.field_shipments_inshell_prev_month).toBe(12_500);
      expect(october.field_shipments_inshell_ytd).toBe(42_500);
      expect((await boardRow('2026-10')).every((r) => r.stale_year_to_date === null)).toBe(true);
    });
  });
});
