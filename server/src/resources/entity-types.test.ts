import { describe, expect, it } from 'vitest';
import { committedEntityTypes, entityTypesSource } from './entity-types.js';

describe('the web entity types (contract/src/entities/generated.ts)', () => {
  it('are what the resource registry makes now (rewrite them with `npm run generate:entities`)', () => {
    expect(
      committedEntityTypes(),
      'contract/src/entities/generated.ts is out of date with server/src/resources/: run `npm run generate:entities`',
    ).toBe(entityTypesSource());
  });

  it('type each attribute as the API sends it', () => {
    const source = entityTypesSource();
    expect(source).toContain("field_handler_status: 'active' | 'inactive';");
    expect(source).toContain('field_address: string | null;');
    expect(source).toContain('field_amount_due: string;');
    expect(source).toContain("field_form_1: { many: 'node--apc_form_1' };");
  });
});
