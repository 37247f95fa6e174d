import { describe, expect, it } from 'vitest';
import { deserialize, firstOf, keepExpanded, nextLink } from './deserialize';

describe('deserialize', () => {
  it('flattens attributes and resolves included relationships', () => {
    const doc = {
      data: [
        {
          type: 'node--reporting_forms_package',
          id: 'p1',
          attributes: { title: 'Package' },
          relationships: {
            field_reporting_period: { data: { type: 'node--reporting_period', id: 'rp1' } },
            field_form_1: { data: [{ type: 'node--apc_form_1', id: 'f1' }] },
            field_form_2: { data: [] },
            field_handler: { data: { type: 'node--handler', id: 'h1' } },
            field_none: { data: null },
          },
        },
      ],
      included: [
        { type: 'node--reporting_period', id: 'rp1', attributes: { field_due_date: '2026-11-10' } },
        { type: 'node--apc_form_1', id: 'f1', attributes: { field_form_status: 'draft' } },
      ],
      links: { next: { href: '/jsonapi/node/reporting_forms_package?page[offset]=50' } },
    };
    const [pkg] = deserialize(doc);
    expect(pkg.title).toBe('Package');
    expect((pkg.field_reporting_period as { field_due_date: string }).field_due_date).toBe('2026-11-10');
    expect((pkg.field_form_1 as { field_form_status: string }[])[0].field_form_status).toBe('draft');
    expect(pkg.field_form_2).toEqual([]);
    expect(pkg.field_handler).toEqual({ type: 'node--handler', id: 'h1' });
    expect(pkg.field_none).toBeNull();
    expect(nextLink(doc)).toContain('page[offset]=50');
  });

  it('handles a single resource, null data and cycles', () => {
    expect(deserialize({ data: null })).toBeNull();
    const doc = {
      data: { type: 'a', id: '1', attributes: {}, relationships: { other: { data: { type: 'b', id: '2' } } } },
      included: [{ type: 'b', id: '2', relationships: { back: { data: { type: 'a', id: '1' } } } }],
    };
    const a = deserialize(doc);
    const b = a.other as Record<string, unknown>;
    expect(b.back).toBe(a);
  });
});

describe('firstOf', () => {
  it('gives the first resource of a collection, with its relationships expanded, or null for none or no document', () => {
    const doc = {
      data: [
        {
          type: 'node--a',
          id: '1',
          attributes: { title: 'one' },
          relationships: { field_b: { data: { type: 'node--b', id: '9' } } },
        },
        { type: 'node--a', id: '2', attributes: { title: 'two' } },
      ],
      included: [{ type: 'node--b', id: '9', attributes: { title: 'nine' } }],
    };
    const first = firstOf(doc);
    expect(first?.id).toBe('1');
    expect((first?.field_b as { title: string }).title).toBe('nine');
    expect(firstOf({ data: [] })).toBeNull();
    expect(firstOf(null)).toBeNull();
    // A document of one resource is not a collection.
    expect(firstOf({ data: { type: 'node--a', id: '1' } })).toBeNull();
  });
});

describe('keepExpanded', () => {
  const season = { id: 's1', type: 'node--season', title: '2026-2027', field_season_end_date: '2027-08-31' };
  it("keeps the cached copy's expanded relations that the saved answer names by id only", () => {
    const cached = { id: 'f1', type: 'node--apc_form_5', field_shelled_wip: 100, field_season: season };
    const saved = {
      id: 'f1',
      type: 'node--apc_form_5',
      field_shelled_wip: 200,
      field_season: { id: 's1', type: 'node--season' },
    };
    expect(keepExpanded(saved, cached)).toEqual({ ...saved, field_season: season });
  });
  it('takes the saved relation when it points elsewhere, and the saved entity alone without a cached copy', () => {
    const cached = { id: 'f1', type: 'node--apc_form_5', field_season: season };
    const saved = { id: 'f1', type: 'node--apc_form_5', field_season: { id: 's2', type: 'node--season' } };
    expect(keepExpanded(saved, cached).field_season).toEqual({ id: 's2', type: 'node--season' });
    expect(keepExpanded(saved, undefined)).toBe(saved);
  });
});
