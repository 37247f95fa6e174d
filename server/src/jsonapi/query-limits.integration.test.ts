import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  form1FiguresParams,
  ownAnalyticsParams,
  industryAnalyticsParams,
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
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksum } from '../test-support/jsonapi-fixtures.js';
import { LIMITS } from './limits.js';
import { parseQueryString } from './query-params.js';
import { keptBytes, SHAPE_CACHE_BYTES } from './shape-cache.js';

/** `filter[c<i>]` conditions over `path`, each a CONTAINS of its own text, all in one OR group. */
function orContains(count: number, path: string, tag: string): string {
  const parts = ['filter[any][group][conjunction]=OR'];
  for (let i = 0; i < count; i += 1) {
    const c = `filter[c${i}][condition]`;
    parts.push(
      `${c}[path]=${path}`,
      `${c}[operator]=CONTAINS`,
      `${c}[value]=${tag}-${i}-${'q'.repeat(40)}`,
      `${c}[memberOf]=any`,
    );
  }
  return parts.join('&');
}

// The attack of issue 32: six hops, 60 conditions; and the same kept within every limit (two hops, 12 conditions).
const SIX_HOPS =
  'field_amendment_of.field_amendment_of.field_amendment_of.field_reporting_forms_package.field_reporting_period.field_season.title';
const TWO_HOPS = 'field_reporting_forms_package.field_reporting_period.title';
const THREE_HOPS = `field_amendment_of.${TWO_HOPS}`;

describe('the limits let every read of the web app through', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  const reads = {
    seasonsParams,
    industryAnalyticsParams,
    ownAnalyticsParams,
    newestReportParams,
    handlerWithIncludesParams,
    directory: () => handlerDirectoryParams('pecan & sons'),
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
  it.each(Object.entries(reads))('%s', (_name, make) => {
    expect(() => parseQueryString(make().getQueryString())).not.toThrow();
  });
});

describeEachDatabase('query limits', (target) => {
  let d: DemoApp;
  let before: Record<string, string>;
  beforeAll(async () => {
    d = await demoApp(target);
    before = await checksum(d.ctx);
  });
  afterAll(async () => {
    await d?.close();
  });

  const get = (url: string) => api(d.app, d.tokens.alice, 'GET', url);
  const expectRefused = (
    r: Awaited<ReturnType<typeof get>>,
    status: number,
    parameter: string | undefined,
    words: RegExp,
  ) => {
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(status);
    expect(String(r.headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
    expect(r.body.errors[0].status).toBe(String(status));
    expect(r.body.errors[0].source?.parameter).toBe(parameter);
    expect(r.body.errors[0].detail).toMatch(words);
  };

  it('refuses the attack of issue 32 (60 OR-ed CONTAINS over six hops) with a 400 naming the limit', async () => {
    const r = await get(`/jsonapi/node/apc_form_1?${orContains(60, SIX_HOPS, 'a')}&page[offset]=7`);
    expectRefused(r, 400, 'filter', /too many filter conditions: at most 12/);
  });

  it('answers each size limit with a 400 naming it', async () => {
    expectRefused(
      await get(`/jsonapi/node/apc_form_1?filter[p][condition][path]=${THREE_HOPS}&filter[p][condition][value]=x`),
      400,
      'filter[p]',
      /at most 2 relationships/,
    );
    expectRefused(
      await get(
        `/jsonapi/node/apc_form_1?sort=field_amendment_of.field_amendment_of.field_reporting_forms_package.title`,
      ),
      400,
      'sort',
      /at most 2 relationships/,
    );
    const groups = Array.from({ length: 11 }, (_, i) => `filter[g${i}][group][conjunction]=OR`).join('&');
    expectRefused(await get(`/jsonapi/node/season?${groups}`), 400, 'filter', /too many filter groups: at most 10/);
    const values = Array.from({ length: 300 }, (_, i) => `filter[a][value][]=${i}&filter[b][value][]=${i}`).join('&');
    expectRefused(
      await get(
        `/jsonapi/node/season?filter[a][operator]=IN&filter[b][operator]=IN&filter[a][path]=title&filter[b][path]=title&${values}`,
      ),
      400,
      'filter',
      /too many filter values: at most 500/,
    );
    expectRefused(
      await get(`/jsonapi/node/season?filter[title]=${'x'.repeat(1001)}`),
      400,
      'filter[title]',
      /at most 1000 characters/,
    );
    expectRefused(
      await get('/jsonapi/node/season?sort=title,title,title,title,title,title'),
      400,
      'sort',
      /too many sort fields: at most 5/,
    );
    const includes = Array.from({ length: 11 }, () => 'field_reporting_period').join(',');
    expectRefused(
      await get(`/jsonapi/node/apc_form_1?include=${includes}`),
      400,
      'include',
      /too many include paths: at most 10/,
    );
    expectRefused(
      await get(
        '/jsonapi/node/apc_form_1?include=field_amendment_of.field_amendment_of.field_amendment_of.field_handler',
      ),
      400,
      'include',
      /at most 3 relationships/,
    );
  });

  it('accepts a 32 KB address and answers 414, as a JSON:API error, beyond', async () => {
    // An IN list of 450 values of 64 characters: under every other limit, about 32 KB of address.
    const base = '/jsonapi/node/season?filter[t][path]=title&filter[t][operator]=IN';
    const value = (i: number) => `&filter[t][value][]=${String(i).padStart(64, 'v')}`;
    let url = base;
    for (let i = 0; Buffer.byteLength(url + value(i)) <= LIMITS.urlBytes; i += 1) url += value(i);
    expect(Buffer.byteLength(url)).toBeGreaterThan(LIMITS.urlBytes - 100);
    const ok = await get(url);
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
    expect(ok.body.data).toEqual([]);
    expectRefused(await get(`${url}${value(9999)}`), 414, undefined, /at most 32768 bytes/);
  });

  it('keeps what the hostile reads that pass every limit cost in bytes: never more than its budget', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i += 1) {
      const r = await get(
        `/jsonapi/node/apc_form_1?${orContains(LIMITS.filterConditions, TWO_HOPS, `t${i}`)}&page[offset]=${i}`,
      );
      statuses.add(r.status);
      if (r.status !== 200) expectRefused(r, 400, undefined, /too complex/);
    }
    expect([...statuses].every((s) => s === 200 || s === 400)).toBe(true);
    expect(keptBytes().shapes).toBeLessThanOrEqual(SHAPE_CACHE_BYTES);
  });

  it('changed nothing', async () => {
    expect(await checksum(d.ctx)).toEqual(before);
  });
});
