import { describe, expect, it } from 'vitest';
import { deserialize, type JsonApiDocument, type ResourceObject } from '../../../lib/jsonapi/deserialize';
import { allPackagesParams } from '../../../lib/portal/package-params';
import { currentVersionOf } from '../../../lib/portal/packages';
import { nextPackage } from './use-forms';

/** A package as the sparse all-packages read returns it: its period and its forms' versions as linkage only. */
function pkg(id: string, period: string, forms: [string[], string[], string[]]): ResourceObject {
  const versions = (n: number) => ({ data: forms[n - 1].map((formId) => ({ type: `node--apc_form_${n}`, id: formId })) });
  return {
    type: 'node--reporting_forms_package', id,
    relationships: {
      field_reporting_period: { data: { type: 'node--reporting_period', id: period } },
      field_form_1: versions(1), field_form_2: versions(2), field_form_3: versions(3),
    },
  };
}
const period = (id: string, season: string): ResourceObject => ({
  type: 'node--reporting_period', id, relationships: { field_season: { data: { type: 'node--season', id: season } } },
});

describe("the form page's Next package, from the sparse read of all packages", () => {
  // Newest first, as the server sorts them: two packages of season 2026, then one of 2025.
  const doc: JsonApiDocument = {
    data: [
      pkg('nov', 'p-nov', [['f1-nov'], ['f2-nov'], ['f3-nov']]),
      pkg('oct', 'p-oct', [['f1-oct', 'f1-oct-amended'], ['f2-oct'], []]),
      pkg('aug', 'p-aug', [['f1-aug'], ['f2-aug'], ['f3-aug']]),
    ],
    included: [period('p-nov', 's-2026'), period('p-oct', 's-2026'), period('p-aug', 's-2025')],
  };
  const packages = deserialize(doc as JsonApiDocument & { data: ResourceObject[] });

  it('goes to the following package of the season, then to the next season', () => {
    expect(nextPackage(packages, 'nov')?.id).toBe('oct');
    expect(nextPackage(packages, 'oct')?.id).toBe('aug');
    expect(nextPackage(packages, 'aug')).toBeNull();
  });

  it("opens the form's current version (the last one of the linkage), or none", () => {
    expect(currentVersionOf(nextPackage(packages, 'nov')!, 1)?.id).toBe('f1-oct-amended');
    expect(currentVersionOf(nextPackage(packages, 'nov')!, 3)).toBeNull();
  });

  it('asks for the linkage and seasons only, not the forms', () => {
    const query = decodeURIComponent(allPackagesParams('h1').getQueryString());
    expect(query).toContain('include=field_reporting_period&');
    expect(query).toContain('fields[node--reporting_forms_package]=field_reporting_period,field_form_1,field_form_2,field_form_3');
    expect(query).toContain('fields[node--reporting_period]=field_season');
  });
});
