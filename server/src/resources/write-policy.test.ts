import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResourceDef, Row, WriteContext, WriteInput } from '../jsonapi/resource.js';
import { allResources } from './index.js';
import { guardedWrites, partiesOf } from './write-guard.js';
import { WRITE_POLICY } from './write-policy.js';
import { DOC_PATH, documentedTables, writePolicyTables } from './write-policy-table.js';

const def = (type: string) => allResources.find((d) => d.type === type)!;
const input = (attributes: Record<string, unknown>, relationships: WriteInput['relationships'] = {}): WriteInput => ({
  values: {},
  attributes,
  relationships,
  meta: {},
});
const handlerUser = { userId: 'u1', name: 'alice', role: 'handler' as const, handlerId: 'h101' };

describe('write policy', () => {
  it('covers every type that has writes, and only actions with a handler behind them', () => {
    const writable = allResources
      .filter((d) => d.writes)
      .map((d) => d.type)
      .sort();
    expect(Object.keys(WRITE_POLICY).sort()).toEqual(writable);
    const noop = async () => 'x';
    expect(() => guardedWrites(def('node--season'), { create: noop }, new Map())).toThrow(
      /allows update but the type has no handler/,
    );
    expect(() =>
      guardedWrites(def('node--season'), { create: noop, update: async () => {}, delete: async () => {} }, new Map()),
    ).toThrow(/delete has no action/);
  });

  it("tells colleagues from the user itself, and a transfer's two parties apart", () => {
    expect([...partiesOf(handlerUser, WRITE_POLICY['user--user'], { id: 'u2', handler_id: 'h101' })]).toEqual([]);
    expect([...partiesOf(handlerUser, WRITE_POLICY['user--user'], { id: 'u1', handler_id: 'h101' })]).toEqual(['self']);
    expect([
      ...partiesOf(handlerUser, WRITE_POLICY['node--apc_form_4'], {
        receiving_handler_id: 'h101',
        transferring_handler_id: 'h102',
      }),
    ]).toEqual(['receiving']);
    expect([...partiesOf(handlerUser, WRITE_POLICY['node--apc_form_5'], { handler_id: 'h102' })]).toEqual([]);
  });

  it('refuses a frozen relationship and a field the action does not take with 422 and their pointers, before the workflow runs', async () => {
    let ran = false;
    const form4: ResourceDef = def('node--apc_form_4');
    const guarded = guardedWrites(
      form4,
      {
        create: async () => 'x',
        update: async () => {
          ran = true;
        },
      },
      new Map(),
    );
    const w = { viewer: handlerUser, def: form4 } as unknown as WriteContext;
    const row: Row = {
      id: 'f',
      transferring_handler_id: 'h101',
      receiving_handler_id: 'h102',
      season_id: 's',
      form_status: 'draft',
      form_activity: 'active',
    };
    const swap = input(
      { field_certified: true },
      { field_transferring_handler: { type: 'node--handler', id: 'h102' } },
    );
    swap.values.transferring_handler_id = 'h102';
    await expect(guarded.update!(w, row, swap)).rejects.toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/relationships/field_transferring_handler' } }],
    });
    await expect(guarded.update!(w, row, input({ field_receiving_certification_name: 'x' }))).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      guarded.update!(w, row, input({ field_form_activity: 'cancelled', field_first_transfer_month: '2026-01' })),
    ).rejects.toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/field_first_transfer_month' } }],
    });
    expect(ran).toBe(false);
    await guarded.update!(w, row, input({ field_first_transfer_month: '2026-01' }));
    expect(ran).toBe(true);
  });

  it('is what docs/SECURITY.md shows (rewrite it with `npx tsx server/src/resources/write-policy-table.ts --write`)', () => {
    expect(documentedTables(readFileSync(DOC_PATH, 'utf8'))).toBe(writePolicyTables());
  });
});
