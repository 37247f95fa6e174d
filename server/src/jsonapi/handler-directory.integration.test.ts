import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * The handler directory as the web app reads it (web/src/features/directory/api/directory-api.ts): pages of 50 by
 * title, followed through links.next, and a search sent to the server as an OR group of CONTAINS conditions over
 * name, number, address, e-mail, phone and website. Case- and accent-insensitive on both databases.
 */
const SEARCHED = ['title', 'field_handler_number', 'field_address', 'field_email', 'field_phone', 'field_website'];

function directoryQuery(search = '', limit = 50): string {
  const p = new URLSearchParams();
  p.set('filter[field_show_in_handler_directory]', '1');
  if (search) {
    p.set('filter[search][group][conjunction]', 'OR');
    for (const f of SEARCHED) {
      p.set(`filter[${f}][condition][path]`, f);
      p.set(`filter[${f}][condition][value]`, search);
      p.set(`filter[${f}][condition][operator]`, 'CONTAINS');
      p.set(`filter[${f}][condition][memberOf]`, 'search');
    }
  }
  p.set('page[limit]', String(limit));
  p.set('sort', 'title');
  return `/jsonapi/node/handler?${p.toString()}`;
}

type Doc = {
  data: Array<{ attributes: { title: string; field_handler_number: string } }>;
  links?: { next?: { href: string } };
};
const numbers = (body: Doc) => body.data.map((h) => h.attributes.field_handler_number);
const path = (href: string) => {
  const u = new URL(href, 'http://x.invalid');
  return u.pathname + u.search;
};

describeEachDatabase('handler directory: paged and searched on the server', (target) => {
  let d: DemoApp;
  const get = async (url: string, who: keyof DemoApp['tokens'] = 'carol') => {
    const r = await api(d.app, d.tokens[who], 'GET', url);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as Doc;
  };
  /** The numbers of the handlers a search finds (first page). */
  const found = async (text: string) => numbers(await get(directoryQuery(text)));

  // Statements SQLite prepares (each text once: the connection keeps them), for the plan below.
  const prepared: string[] = [];
  const prepare = SQLite.prototype.prepare;

  beforeAll(async () => {
    d = await demoApp(target);
    if (target.dialect === 'sqlite') {
      SQLite.prototype.prepare = function (this: SQLite.Database, text: string) {
        prepared.push(text);
        return prepare.call(this, text);
      } as typeof prepare;
    }
    const now = '2026-11-22T12:00:00+00:00';
    const flag = (v: boolean) => (target.dialect === 'sqlite' ? Number(v) : v);
    // 60 more handlers in the directory (three pages with the demo's two), one with accents, one hidden.
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: randomUUID(),
      title: `Bulk Pecans ${String(i).padStart(2, '0')}`,
      created: now,
      changed: now,
      handler_number: String(500 + i),
      handler_status: 'active',
      show_in_handler_directory: flag(true),
      address: null,
      phone: null,
      email: null,
      website: null,
    }));
    rows.push({
      ...rows[0],
      id: randomUUID(),
      title: 'Pécanerie de la Côte',
      handler_number: '601',
      address: 'Rue Émile 3\nQuébec',
      email: 'ÉTÉ@cote.example' as never,
    });
    rows.push({
      ...rows[0],
      id: randomUUID(),
      title: 'Hidden Pecans',
      handler_number: '602',
      show_in_handler_directory: flag(false),
    });
    await d.ctx.db
      .insertInto('handlers')
      .values(rows as never)
      .execute();
  });
  afterAll(async () => {
    SQLite.prototype.prepare = prepare;
    await d?.close();
  });

  it('reads 50 at a time by title, and links.next reads the rest without repeats', async () => {
    const seen: string[] = [];
    let body = await get(directoryQuery());
    const sizes = [body.data.length];
    seen.push(...body.data.map((h) => h.attributes.title));
    while (body.links?.next) {
      expect(body.links.next.href).toContain('page%5Blimit%5D=50');
      body = await get(path(body.links.next.href));
      sizes.push(body.data.length);
      seen.push(...body.data.map((h) => h.attributes.title));
    }
    expect(sizes).toEqual([50, 13]);
    expect(seen).toHaveLength(63);
    expect(new Set(seen).size).toBe(63);
    expect(seen).not.toContain('Hidden Pecans');
    expect(seen.slice(0, 3)).toEqual(['Bulk Pecans 00', 'Bulk Pecans 01', 'Bulk Pecans 02']);
    expect(seen.slice(-3)).toEqual(['Mesa Valley Pecans', 'Pécanerie de la Côte', 'Riverbend Pecan Co.']);
  });

  it('finds a handler by name, any case, on both databases', async () => {
    expect(await found('riverbend')).toEqual(['101']);
    expect(await found('RIVERBEND PECAN')).toEqual(['101']);
    expect(await found('mesa')).toEqual(['102']);
  });

  it('finds by number, address, e-mail, phone and website', async () => {
    expect(await found('102')).toEqual(['102']);
    expect(await found('albany')).toEqual(['101']);
    expect(await found('hello@mesa')).toEqual(['102']);
    expect(await found('575 555')).toEqual(['102']);
    expect(await found('riverbend-pecan.example')).toEqual(['101']);
  });

  it('is accent-insensitive both ways, as the search in the browser was', async () => {
    expect(await found('pecanerie de la cote')).toEqual(['601']);
    expect(await found('CÔTE')).toEqual(['601']);
    expect(await found('emile')).toEqual(['601']);
    expect(await found('quebec')).toEqual(['601']);
    expect(await found('été@')).toEqual(['601']);
    expect(await found('Rivérbend')).toEqual(['101']);
  });

  it('pages a search too, and finds nothing for nonsense or LIKE wildcards', async () => {
    const first = await get(directoryQuery('bulk pecans', 25));
    expect(first.data).toHaveLength(25);
    const second = await get(path(first.links!.next!.href));
    expect(second.data).toHaveLength(25);
    expect(second.data[0].attributes.title).toBe('Bulk Pecans 25');
    expect((await get(directoryQuery('no such handler'))).data).toEqual([]);
    expect((await get(directoryQuery('%'))).data).toEqual([]);
    expect((await get(directoryQuery('hidden'), 'staff')).data).toEqual([]); // the flag filter holds for staff too
  });

  it('a handler user still reads its own handler when it is not in the directory, but not in the directory', async () => {
    // dave's handler (103) is not flagged: the directory filter leaves it out, the read rule still lets him read it.
    expect(numbers(await get(directoryQuery('gulf'), 'dave'))).toEqual([]);
    const own = await api(d.app, d.tokens.dave, 'GET', `/jsonapi/node/handler/${d.handlers['103']}`);
    expect(own.status).toBe(200);
  });

  it.runIf(target.dialect === 'sqlite')(
    'the first page walks the directory index in title order (no scan, no sort)',
    async () => {
      await get(directoryQuery());
      const statement = prepared.find((s) => /from "handlers"/.test(s) && /limit/i.test(s) && !/portal_fold/.test(s));
      expect(statement, prepared.join('\n')).toBeDefined();
      const n = (statement!.match(/\?/g) ?? []).length;
      const plan = await d.ctx.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement}`, Array(n).fill(1)),
      );
      const details = plan.rows.map((r) => r.detail);
      expect(details.join('\n')).toMatch(/SEARCH \w+ USING INDEX handlers_directory \(show_in_handler_directory=\?\)/);
      expect(details.join('\n')).not.toMatch(/TEMP B-TREE/);
    },
  );
});
