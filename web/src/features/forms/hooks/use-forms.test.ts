import { describe, expect, it } from 'vitest';
import { deserialize, type JsonApiDocument, type ResourceObject } from '../../../lib/jsonapi/deserialize';
import { nextPackageParams } from '../../../lib/portal/package-params';
import { currentVersionOf, type FormsPackage } from '../../../lib/portal/packages';

/** A package as the next-package read returns it: its forms' versions as linkage only, oldest first. */
function pkg(id: string, forms: [string[], string[], string[]]): ResourceObject {
  const versions = (n: number) => ({
    data: forms[n - 1].map((formId) => ({ type: `node--apc_form_${n}`, id: formId })),
  });
  return {
    type: 'node--reporting_forms_package',
    id,
    relationships: { field_form_1: versions(1), field_form_2: versions(2), field_form_3: versions(3) },
  };
}

describe("the form page's Next package", () => {
  it("asks for the one package of the earliest period due after this one (the newer month), its forms' ids only", () => {
    const query = decodeURIComponent(nextPackageParams('h1', '2026-11-20').getQueryString());
    expect(query).toContain('filter[field_handler.id]=h1');
    expect(query).toContain('filter[field_reporting_period.field_due_date][value]=2026-11-20&');
    expect(query).toContain('filter[field_reporting_period.field_due_date][operator]=>&');
    expect(query).toContain('sort=field_reporting_period.field_due_date');
    expect(query).not.toContain('sort=-');
    expect(query).toContain('fields[node--reporting_forms_package]=field_form_1,field_form_2,field_form_3');
    expect(query).toContain('page[limit]=1');
    expect(query).not.toContain('include=');
  });

  it("opens the form's current version (the last one of the linkage), or none", () => {
    const doc = { data: [pkg('oct', [['f1-oct', 'f1-oct-amended'], ['f2-oct'], []])] } as JsonApiDocument & {
      data: ResourceObject[];
    };
    const [next] = deserialize<FormsPackage>(doc);
    expect(currentVersionOf(next, 1)?.id).toBe('f1-oct-amended');
    expect(currentVersionOf(next, 2)?.id).toBe('f2-oct');
    expect(currentVersionOf(next, 3)).toBeNull();
  });
});
