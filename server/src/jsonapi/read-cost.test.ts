import { describe, expect, it } from 'vitest';
import {
  form1FiguresParams,
  industryAnalyticsParams,
  ownAnalyticsParams,
} from '../../../web/src/features/analytics/api/analytics-params.js';
import { newestReportParams } from '../../../web/src/lib/portal/position-report-params.js';
import { contactsParams, handlerDirectoryParams } from '../../../web/src/lib/portal/directory-params.js';
import {
  handlerWithIncludesParams,
  userByNameParams,
  userWithHandlerParams,
} from '../../../web/src/lib/portal/handler-params.js';
import { invoicesParams, openInvoicesParams } from '../../../web/src/lib/portal/invoice-params.js';
import {
  currentSeasonPackagesParams,
  nextPackageParams,
  seasonPackagesParams,
} from '../../../web/src/lib/portal/package-params.js';
import { seasonsParams } from '../../../web/src/lib/portal/season-params.js';
import { parseQueryString } from './query-params.js';
import { COSTLY_READ, readCost } from './read-cost.js';

const cost = (query: string) => readCost(parseQueryString(query));

describe('the cost of a read', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  // The web app's reads stay on the server's connection, with its fast paths (decision 0009).
  const reads = {
    seasonsParams,
    industryAnalyticsParams,
    ownAnalyticsParams,
    newestReportParams,
    handlerWithIncludesParams,
    directory: () => handlerDirectoryParams(),
    contacts: () => contactsParams(id),
    userByName: () => userByNameParams('alice'),
    userWithHandler: () => userWithHandlerParams('alice'),
    invoices: () => invoicesParams(id),
    openInvoices: () => openInvoicesParams(id),
    seasonPackages: () => seasonPackagesParams(id, id),
    currentSeasonPackages: () => currentSeasonPackagesParams(id),
    nextPackage: () => nextPackageParams(id, '2026-12-01'),
    form1Figures: () =>
      form1FiguresParams(
        id,
        Array.from({ length: 30 }, () => id),
      ),
  };
  it.each(Object.entries(reads))('%s is cheap', (_name, make) => {
    expect(cost(make().getQueryString())).toBeLessThan(COSTLY_READ);
  });

  it("counts the directory's search (six CONTAINS over every handler) as costly", () => {
    expect(cost(handlerDirectoryParams('pecan').getQueryString())).toBeGreaterThanOrEqual(COSTLY_READ);
  });

  it('weighs relationship hops and text matches', () => {
    expect(cost('filter[title]=x')).toBe(1);
    expect(
      cost('filter[a][condition][path]=title&filter[a][condition][operator]=CONTAINS&filter[a][condition][value]=x'),
    ).toBe(2);
    expect(cost('filter[field_reporting_period.id]=x')).toBe(1);
    expect(cost('filter[field_reporting_period.title]=x')).toBe(3);
    expect(
      cost(
        'filter[a][condition][path]=field_reporting_forms_package.field_reporting_period.title&filter[a][condition][operator]=STARTS_WITH&filter[a][condition][value]=x',
      ),
    ).toBe(10);
    expect(cost('sort=field_reporting_period.title,title')).toBe(2);
  });
});
