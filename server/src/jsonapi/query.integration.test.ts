import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedFilePath } from '../files/signing.js';
import { api, ids } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { pathOf, resources } from '../test-support/jsonapi-fixtures.js';

/**
 * Every query feature of the contract, against the demo data set, with the exact rows expected. Expected values
 * come from the demo's fixed figures (three seasons starting 2024-09-01, 2025-09-01, 2026-09-01) or straight from
 * the database, never from the API itself.
 */
describeEachDatabase('JSON:API query features', (target) => {
  let d: DemoApp;
  let seasons: Record<string, string>;
  const get = (url: string, who: keyof DemoApp['tokens'] = 'alice') => api(d.app, d.tokens[who], 'GET', url);
  const seasonTitles = (body: { data: Array<{ id: string }> }) =>
    ids(body).map((id) => Object.entries(seasons).find(([, v]) => v === id)![0]);

  beforeAll(async () => {
    d = await demoApp(target);
    const rows = await d.ctx.db.selectFrom('seasons').select(['id', 'title']).execute();
    seasons = Object.fromEntries(rows.map((r) => [String(r.title), String(r.id)]));
  });
  afterAll(async () => {
    await d?.close();
  });

  it('shorthand filter: filter[name]=alice', async () => {
    const alice = await d.ctx.db.selectFrom('users').select('id').where('name', '=', 'alice').executeTakeFirstOrThrow();
    const r = await get('/jsonapi/user/user?filter[name]=alice');
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([alice.id]);
    expect(r.body.data[0].attributes.name).toBe('alice');
    // The same shorthand as staff, who can read every user: exactly one match, not all five.
    const s = await get('/jsonapi/user/user?filter[name]=bob', 'staff');
    expect(s.body.data.map((u: { attributes: { name: string } }) => u.attributes.name)).toEqual(['bob']);
  });

  describe('condition filter operators', () => {
    const cond = (path: string, operator: string, values: string[]) => {
      const p = new URLSearchParams();
      p.set('filter[c][condition][path]', path);
      p.set('filter[c][condition][operator]', operator);
      if (values.length === 1 && !['IN', 'NOT IN'].includes(operator)) p.set('filter[c][condition][value]', values[0]);
      else values.forEach((v) => p.append('filter[c][condition][value][]', v));
      return p.toString();
    };
    const cases: Array<[string, string, string[], string[]]> = [
      ['=', 'field_season_start_date', ['2025-09-01'], ['2025-2026']],
      ['<>', 'field_season_start_date', ['2025-09-01'], ['2024-2025', '2026-2027']],
      ['>', 'field_season_start_date', ['2025-09-01'], ['2026-2027']],
      ['>=', 'field_season_start_date', ['2025-09-01'], ['2025-2026', '2026-2027']],
      ['<', 'field_season_start_date', ['2025-09-01'], ['2024-2025']],
      ['<=', 'field_season_start_date', ['2025-09-01'], ['2024-2025', '2025-2026']],
      ['STARTS_WITH', 'title', ['2025'], ['2025-2026']],
      ['CONTAINS', 'title', ['25-20'], ['2025-2026']],
      ['ENDS_WITH', 'title', ['2027'], ['2026-2027']],
      ['IN', 'field_season_start_date', ['2024-09-01', '2026-09-01'], ['2024-2025', '2026-2027']],
      ['NOT IN', 'field_season_start_date', ['2024-09-01'], ['2025-2026', '2026-2027']],
      ['BETWEEN', 'field_season_start_date', ['2024-10-01', '2025-12-31'], ['2025-2026']],
      ['NOT BETWEEN', 'field_season_start_date', ['2024-10-01', '2025-12-31'], ['2024-2025', '2026-2027']],
    ];
    it.each(cases)('%s on %s', async (operator, path, values, expected) => {
      const r = await get(`/jsonapi/node/season?sort=field_season_start_date&${cond(path, operator, values)}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(seasonTitles(r.body)).toEqual(expected);
    });

    it('text operators are case-insensitive and escape LIKE wildcards', async () => {
      const r = await get(`/jsonapi/node/handler?${cond('title', 'CONTAINS', ['RIVERBEND'])}`, 'staff');
      expect(
        r.body.data.map((h: { attributes: { field_handler_number: string } }) => h.attributes.field_handler_number),
      ).toEqual(['101']);
      const wild = await get(`/jsonapi/node/season?${cond('title', 'CONTAINS', ['%'])}`);
      expect(wild.body.data).toEqual([]);
      const underscore = await get(`/jsonapi/node/season?${cond('title', 'STARTS_WITH', ['202_'])}`);
      expect(underscore.body.data).toEqual([]);
    });

    it('IS NULL and IS NOT NULL split the invoices exactly as the database does', async () => {
      const own = await d.ctx.db
        .selectFrom('invoices')
        .select(['id', 'paid_date'])
        .where('handler_id', '=', d.handlers['101'])
        .execute();
      const unpaid = own
        .filter((i) => i.paid_date === null)
        .map((i) => String(i.id))
        .sort();
      const paid = own
        .filter((i) => i.paid_date !== null)
        .map((i) => String(i.id))
        .sort();
      expect(unpaid.length).toBeGreaterThan(0);
      expect(paid.length).toBeGreaterThan(0);
      const isNull = await get(
        `/jsonapi/node/invoice?page[limit]=500&filter[c][condition][path]=field_paid_date&filter[c][condition][operator]=IS%20NULL`,
      );
      const notNull = await get(
        `/jsonapi/node/invoice?page[limit]=500&filter[c][condition][path]=field_paid_date&filter[c][condition][operator]=IS%20NOT%20NULL`,
      );
      expect(isNull.status).toBe(200);
      expect(ids(isNull.body).sort()).toEqual(unpaid);
      expect(ids(notNull.body).sort()).toEqual(paid);
    });

    it('integer comparison: amendments are the forms 1 with field_amendment_number > 0', async () => {
      const expected = await d.ctx.db
        .selectFrom('apc_form_1')
        .select('id')
        .where('handler_id', '=', d.handlers['101'])
        .where('amendment_number', '>', 0)
        .execute();
      expect(expected.length).toBe(2);
      const r = await get(`/jsonapi/node/apc_form_1?${cond('field_amendment_number', '>', ['0'])}`);
      expect(ids(r.body).sort()).toEqual(expected.map((e) => String(e.id)).sort());
    });
  });

  it('OR group with memberOf and a nested AND group', async () => {
    // 2024-2025 OR (started after 2025-01-01 AND current): 2024-2025 and 2026-2027, not 2025-2026.
    const q = [
      'filter[g][group][conjunction]=OR',
      'filter[old][condition][path]=title',
      'filter[old][condition][value]=2024-2025',
      'filter[old][condition][memberOf]=g',
      'filter[h][group][conjunction]=AND',
      'filter[h][group][memberOf]=g',
      'filter[late][condition][path]=field_season_start_date',
      'filter[late][condition][operator]=%3E%3D',
      'filter[late][condition][value]=2025-01-01',
      'filter[late][condition][memberOf]=h',
      'filter[cur][condition][path]=field_current_season',
      'filter[cur][condition][value]=1',
      'filter[cur][condition][memberOf]=h',
    ].join('&');
    const r = await get(`/jsonapi/node/season?sort=field_season_start_date&${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(seasonTitles(r.body)).toEqual(['2024-2025', '2026-2027']);
    // With a root condition next to the group, both must hold.
    const r2 = await get(
      `/jsonapi/node/season?${q}&filter[notold][condition][path]=title&filter[notold][condition][operator]=%3C%3E&filter[notold][condition][value]=2024-2025`,
    );
    expect(seasonTitles(r2.body)).toEqual(['2026-2027']);
  });

  it('dotted paths two levels deep in a filter and in a sort', async () => {
    const expected = await d.ctx.db
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
      .select(['k.id', 'p.due_date'])
      .where('k.handler_id', '=', d.handlers['101'])
      .where('p.season_id', '=', seasons['2025-2026'])
      .orderBy('p.due_date', 'desc')
      .execute();
    expect(expected.length).toBe(12);
    const r = await get(
      '/jsonapi/node/reporting_forms_package?filter[field_reporting_period.field_season.title]=2025-2026&sort=-field_reporting_period.field_due_date',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ids(r.body)).toEqual(expected.map((e) => String(e.id)));
    // The ascending sort is the exact reverse.
    const asc = await get(
      '/jsonapi/node/reporting_forms_package?filter[field_reporting_period.field_season.title]=2025-2026&sort=field_reporting_period.field_due_date',
    );
    expect(ids(asc.body)).toEqual(expected.map((e) => String(e.id)).reverse());
    // A two-level sort over the season: current season's packages first when descending.
    const bySeason = await get(
      '/jsonapi/node/reporting_forms_package?page[limit]=3&sort=-field_reporting_period.field_season.field_season_start_date,-field_reporting_period.field_due_date',
    );
    const current = await d.ctx.db
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
      .select('k.id')
      .where('k.handler_id', '=', d.handlers['101'])
      .where('p.season_id', '=', seasons['2026-2027'])
      .orderBy('p.due_date', 'desc')
      .execute();
    expect(ids(bySeason.body)).toEqual(current.map((c) => String(c.id)));
  });

  it('a sort on a computed constant (status, langcode) keeps the order by id on both databases', async () => {
    const byId = await get('/jsonapi/node/reporting_forms_package?page[limit]=5&sort=id');
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    for (const sort of ['status', '-status', 'langcode', '-langcode,title']) {
      const r = await get(`/jsonapi/node/reporting_forms_package?page[limit]=5&sort=${sort}`);
      expect([sort, r.status], JSON.stringify(r.body)).toEqual([sort, 200]);
      if (!sort.includes('title')) expect(ids(r.body)).toEqual(ids(byId.body));
    }
  });

  it('include of a to-many and through it a to-one: the included ids are exactly the forms and their PDFs', async () => {
    const packages = await d.ctx.db
      .selectFrom('reporting_forms_packages as k')
      .innerJoin('reporting_periods as p', 'p.id', 'k.period_id')
      .select('k.id')
      .where('k.handler_id', '=', d.handlers['101'])
      .where('p.season_id', '=', seasons['2025-2026'])
      .execute();
    const forms = await d.ctx.db
      .selectFrom('apc_form_1')
      .select(['id', 'package_id', 'form_1_pdf_id', 'amendment_number'])
      .where(
        'package_id',
        'in',
        packages.map((p) => String(p.id)),
      )
      .orderBy('amendment_number')
      .execute();
    expect(forms.length).toBe(13); // twelve months and one amendment
    const r = await get(
      '/jsonapi/node/reporting_forms_package?filter[field_reporting_period.field_season.id]=' +
        seasons['2025-2026'] +
        '&include=field_form_1,field_form_1.field_form_1_pdf,field_reporting_period',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const included = r.body.included as Array<{ type: string; id: string }>;
    const byType = (t: string) =>
      included
        .filter((i) => i.type === t)
        .map((i) => i.id)
        .sort();
    expect(byType('node--apc_form_1')).toEqual(forms.map((f) => String(f.id)).sort());
    expect(byType('file--file')).toEqual(forms.map((f) => String(f.form_1_pdf_id)).sort());
    expect(byType('node--reporting_period').length).toBe(12);
    expect(included.length).toBe(13 + 13 + 12);
    // The amended package lists both versions, oldest first.
    const amended = forms.find((f) => Number(f.amendment_number) > 0)!;
    const pkg = r.body.data.find((p: { id: string }) => p.id === amended.package_id);
    const versions = forms.filter((f) => f.package_id === amended.package_id).map((f) => String(f.id));
    expect(pkg.relationships.field_form_1.data.map((x: { id: string }) => x.id)).toEqual(versions);
    // An include of a to-one alone (on an item).
    const form = await get(
      `/jsonapi/node/apc_form_1/${String(amended.id)}?include=field_reporting_period,field_form_1_pdf`,
    );
    expect(form.body.included.map((i: { id: string }) => i.id).sort()).toEqual(
      [String(amended.form_1_pdf_id), form.body.data.relationships.field_reporting_period.data.id].sort(),
    );
  });

  it('sparse fieldsets on primary and included resources', async () => {
    const r = await get(`/jsonapi/node/handler/${d.handlers['101']}?fields[node--handler]=title,field_handler_number`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data.attributes).sort()).toEqual(['field_handler_number', 'title']);
    expect(r.body.data.relationships).toBeUndefined();
    const p = await get(
      '/jsonapi/node/reporting_forms_package?page[limit]=2&include=field_form_1&fields[node--reporting_forms_package]=field_form_1&fields[node--apc_form_1]=field_form_status',
    );
    expect(p.status).toBe(200);
    for (const pkg of p.body.data) {
      expect(Object.keys(pkg.attributes)).toEqual([]);
      expect(Object.keys(pkg.relationships)).toEqual(['field_form_1']);
    }
    expect(p.body.included.length).toBeGreaterThan(0);
    for (const f of p.body.included) {
      expect(Object.keys(f.attributes)).toEqual(['field_form_status']);
      expect(f.relationships).toBeUndefined();
    }
  });

  it('includes follow a to-many relationship that the sparse fieldset leaves out', async () => {
    const whole = await get('/jsonapi/node/reporting_forms_package?page[limit]=3&sort=id&include=field_form_1');
    const sparse = await get(
      '/jsonapi/node/reporting_forms_package?page[limit]=3&sort=id&include=field_form_1&fields[node--reporting_forms_package]=title',
    );
    expect(sparse.status).toBe(200);
    for (const pkg of sparse.body.data) expect(pkg.relationships).toBeUndefined();
    const included = (body: { included: Array<{ type: string; id: string }> }) =>
      body.included.map((r) => `${r.type}/${r.id}`).sort();
    expect(included(whole.body).length).toBeGreaterThanOrEqual(3);
    expect(included(sparse.body)).toEqual(included(whole.body));
  });

  it('a sparse fieldset gives the same values as the whole resource, and includes still follow an unshown to-one', async () => {
    // Only the fieldset's columns are read (jsonapi/read.ts): the values must be those of the full read.
    const include = 'include=field_form_1.field_form_1_pdf,field_reporting_period';
    const whole = await get(`/jsonapi/node/reporting_forms_package?page[limit]=5&sort=id&${include}`);
    const sparse = await get(
      `/jsonapi/node/reporting_forms_package?page[limit]=5&sort=id&${include}&fields[node--reporting_forms_package]=title,field_form_1&fields[node--apc_form_1]=field_receipts_total,field_form_1_pdf&fields[node--reporting_period]=field_due_date`,
    );
    expect(sparse.status).toBe(200);
    const byId = (list: Array<{ type: string; id: string }>) => new Map(list.map((r) => [`${r.type}/${r.id}`, r]));
    const wholeIncluded = byId(whole.body.included);
    expect(sparse.body.data.map((r: { id: string }) => r.id)).toEqual(whole.body.data.map((r: { id: string }) => r.id));
    sparse.body.data.forEach(
      (r: { attributes: object; relationships: Record<string, { data: unknown }> }, i: number) => {
        expect(r.attributes).toEqual({ title: whole.body.data[i].attributes.title });
        expect(Object.keys(r.relationships)).toEqual(['field_form_1']);
        expect(r.relationships.field_form_1.data).toEqual(whole.body.data[i].relationships.field_form_1.data);
      },
    );
    // The periods are included although the packages do not show their (to-one) relationship to them.
    expect([...byId(sparse.body.included).keys()].sort()).toEqual([...wholeIncluded.keys()].sort());
    const types = new Set<string>();
    for (const r of sparse.body.included as Array<{
      type: string;
      id: string;
      attributes: Record<string, unknown>;
      relationships?: Record<string, { data: unknown }>;
    }>) {
      types.add(r.type);
      const full = wholeIncluded.get(`${r.type}/${r.id}`) as typeof r;
      if (r.type === 'node--apc_form_1') {
        expect(r.attributes).toEqual({ field_receipts_total: full.attributes.field_receipts_total });
        expect(r.relationships?.field_form_1_pdf.data).toEqual(full.relationships?.field_form_1_pdf.data);
      } else if (r.type === 'node--reporting_period') {
        expect(r.attributes).toEqual({ field_due_date: full.attributes.field_due_date });
      } else {
        expect(r).toEqual(full); // files: no fieldset asked
      }
    }
    expect([...types].sort()).toEqual(['file--file', 'node--apc_form_1', 'node--reporting_period']);
  });

  it('page[offset] and page[limit] with links.next and links.prev, no overlap between pages', async () => {
    const all = await d.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('handler_id', '=', d.handlers['101'])
      .execute();
    expect(all.length).toBe(29);
    const seen: string[] = [];
    let url: string | undefined = '/jsonapi/node/apc_form_1?page[limit]=10&fields[node--apc_form_1]=title';
    const pages: Array<{ size: number; prev: boolean; next: boolean }> = [];
    while (url) {
      const r = await get(url);
      expect(r.status).toBe(200);
      seen.push(...ids(r.body));
      pages.push({ size: r.body.data.length, prev: Boolean(r.body.links.prev), next: Boolean(r.body.links.next) });
      url = r.body.links.next ? pathOf(r.body.links.next.href) : undefined;
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages).toEqual([
      { size: 10, prev: false, next: true },
      { size: 10, prev: true, next: true },
      { size: 9, prev: true, next: false },
    ]);
    expect(new Set(seen).size).toBe(29);
    expect(seen.sort()).toEqual(all.map((a) => String(a.id)).sort());
    const third = await get('/jsonapi/node/apc_form_1?page[limit]=10&page[offset]=20');
    const back = await get(pathOf(third.body.links.prev.href));
    const second = await get('/jsonapi/node/apc_form_1?page[limit]=10&page[offset]=10');
    expect(ids(back.body)).toEqual(ids(second.body));
    // Exactly one page: no next link.
    const one = await get('/jsonapi/node/season?page[limit]=3');
    expect(one.body.data.length).toBe(3);
    expect(one.body.links.next).toBeUndefined();
  });

  it('boolean filter values 1/0/true/false', async () => {
    const numbers = async (v: string) => {
      const r = await get(
        `/jsonapi/node/handler?filter[field_show_in_handler_directory]=${v}&sort=field_handler_number`,
        'staff',
      );
      expect(r.status).toBe(200);
      return r.body.data.map(
        (h: { attributes: { field_handler_number: string } }) => h.attributes.field_handler_number,
      );
    };
    expect(await numbers('1')).toEqual(['101', '102']);
    expect(await numbers('true')).toEqual(['101', '102']);
    expect(await numbers('0')).toEqual(['103']);
    expect(await numbers('false')).toEqual(['103']);
    const current = await get('/jsonapi/node/season?filter[field_current_season]=true');
    expect(seasonTitles(current.body)).toEqual(['2026-2027']);
  });

  it('relationship endpoints: /relationships/field_x and the related /field_x', async () => {
    const amended = await d.ctx.db
      .selectFrom('apc_form_1')
      .select(['package_id', 'period_id'])
      .where('handler_id', '=', d.handlers['101'])
      .where('amendment_number', '>', 0)
      .executeTakeFirstOrThrow();
    const versions = (
      await d.ctx.db
        .selectFrom('apc_form_1')
        .select('id')
        .where('package_id', '=', amended.package_id)
        .orderBy('amendment_number')
        .execute()
    ).map((v) => String(v.id));
    expect(versions.length).toBe(2);
    const base = `/jsonapi/node/reporting_forms_package/${String(amended.package_id)}`;
    const linkage = await get(`${base}/relationships/field_form_1`);
    expect(linkage.status).toBe(200);
    expect(linkage.body.data).toEqual(versions.map((id) => ({ type: 'node--apc_form_1', id })));
    const related = await get(`${base}/field_form_1`);
    expect(related.status).toBe(200);
    expect(related.body.data.map((f: { type: string; id: string }) => `${f.type}:${f.id}`).sort()).toEqual(
      versions.map((v) => `node--apc_form_1:${v}`).sort(),
    );
    expect(related.body.data[0].attributes.field_form_status).toBeDefined();
    const one = await get(`${base}/relationships/field_reporting_period`);
    expect(one.body.data).toEqual({ type: 'node--reporting_period', id: String(amended.period_id) });
    const period = await get(`${base}/field_reporting_period`);
    expect(period.body.data.id).toBe(String(amended.period_id));
    expect(period.body.data.type).toBe('node--reporting_period');
    expect(period.body.data.attributes.field_period_month).toMatch(/^\d{4}-\d{2}$/);
  });

  it('file--file: the signed uri.url downloads the PDF without a token; tampered or expired links are 401', async () => {
    const form = await d.ctx.db
      .selectFrom('apc_form_1')
      .select(['id', 'form_1_pdf_id'])
      .where('handler_id', '=', d.handlers['101'])
      .where('form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const r = await get(`/jsonapi/node/apc_form_1/${String(form.id)}?include=field_form_1_pdf`);
    const file = resources(r.body).included.find((i) => i.type === 'file--file')!;
    expect(file.id).toBe(String(form.form_1_pdf_id));
    expect(file.attributes.filemime).toBe('application/pdf');
    const url = (file.attributes.uri as { url: string }).url;
    const download = await d.app.inject({ method: 'GET', url: pathOf(url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(download.rawPayload.length).toBe(file.attributes.filesize);

    const link = new URL(url);
    const sig = link.searchParams.get('signature')!;
    const tampered = new URL(url);
    tampered.searchParams.set('signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    const expiredPath = signedFilePath(
      d.ctx.fileLinkSecret,
      file.id,
      String(file.attributes.filename),
      Math.floor(d.ctx.clock.now().getTime() / 1000) - 1,
      link.searchParams.get('session')!,
    );
    for (const bad of [pathOf(tampered.toString()), pathOf(longer.toString()), expiredPath, `${link.pathname}`]) {
      const res = await d.app.inject({ method: 'GET', url: bad });
      expect(res.statusCode, bad).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.rawPayload.subarray(0, 4).toString('latin1')).not.toBe('%PDF');
    }
    // Another file's id with this file's valid signature.
    const other = await d.ctx.db.selectFrom('files').select('id').where('id', '<>', file.id).executeTakeFirstOrThrow();
    const swapped = `/files/${String(other.id)}/x.pdf${link.search}`;
    expect((await d.app.inject({ method: 'GET', url: swapped })).statusCode).toBe(401);
  });
});
