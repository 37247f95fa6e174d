import type { Board, BoardRow } from '@pecan/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, councilCall } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { periodIdOf } from '../test-support/filings-fixture.js';

/**
 * The board's page, search and sort (GET /api/council/board): the pages of the board put together are the whole
 * board, a handler's forms are never split across pages, the counts stay those of the whole board, and bad paging
 * values are refused (422) like every other parameter.
 */
describeEachDatabase('submissions board pages', (target) => {
  let demo: DemoApp;
  let periodId: string;

  /** Handlers besides the demo's 101-103: an accented name for the search, enough lines for several pages. */
  const EXTRA = [
    ['201', 'Épicerie Noix du Sud'],
    ['202', 'Hill Country Pecans'],
    ['203', 'Nogal Ñandú'],
    ['204', 'Bayou Shellers'],
  ] as const;

  beforeAll(async () => {
    demo = await demoApp(target);
    periodId = await periodIdOf(demo, '2026-10');
    for (const [number, title] of EXTRA) {
      const made = await api(demo.app, demo.tokens.staff, 'POST', '/jsonapi/node/handler', {
        data: { type: 'node--handler', attributes: { title, field_handler_number: number } },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
  });

  const board = async (query: string): Promise<Board> => {
    const r = await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/board?period_id=${periodId}${query}`);
    expect(r.status, r.text).toBe(200);
    return r.body as Board;
  };
  const numbersOf = (rows: BoardRow[]) => [...new Set(rows.map((r) => r.handler_number))];

  it('gives the whole board unpaged, and the same rows page by page, never splitting a handler', async () => {
    const whole = await board('');
    expect(whole.meta).toEqual({ total_handlers: 7, page: 1, per_page: null, pages: 1 });
    expect(whole.data).toHaveLength(21);
    const pages: BoardRow[][] = [];
    for (let page = 1; page <= 3; page += 1) {
      const b = await board(`&page=${page}&per_page=3`);
      expect(b.meta).toEqual({ total_handlers: 7, page, per_page: 3, pages: 3 });
      expect(b.counts).toEqual(whole.counts);
      pages.push(b.data);
    }
    expect(pages.map((p) => p.length)).toEqual([9, 9, 3]);
    expect(pages.flat()).toEqual(whole.data);
    // A handler's three forms are on one page, together.
    for (const p of pages)
      for (const n of numbersOf(p)) expect(p.filter((r) => r.handler_number === n)).toHaveLength(3);
    expect((await board('&page=4&per_page=3')).data).toEqual([]);
  });

  it('pages 50 lines by default once asked to page', async () => {
    const b = await board('&page=1');
    expect(b.meta).toEqual({ total_handlers: 7, page: 1, per_page: 50, pages: 1 });
    expect(b.data).toHaveLength(21);
  });

  it('sorts by handler number either way', async () => {
    const whole = await board('');
    const down = await board('&sort=-handler_number&per_page=2');
    expect(numbersOf(down.data)).toEqual(numbersOf(whole.data).reverse().slice(0, 2));
    // Lines go backwards; a line's forms stay in their order.
    expect(down.data.map((r) => r.form)).toEqual([1, 2, 3, 1, 2, 3].map((n) => `apc_form_${n}`));
    expect((await board('&sort=handler_number')).data).toEqual(whole.data);
  });

  it('searches handler number and name, case- and accent-insensitive, with counts over the whole board', async () => {
    const whole = await board('');
    const epi = await board('&q=EPICERIE');
    expect(numbersOf(epi.data)).toEqual(['201']);
    expect(epi.meta.total_handlers).toBe(1);
    expect(epi.counts).toEqual(whole.counts);
    expect(numbersOf((await board('&q=%C3%B1and%C3%BA')).data)).toEqual(['203']); // ñandú
    expect(numbersOf((await board('&q=nandu')).data)).toEqual(['203']);
    expect(numbersOf((await board('&q=20&per_page=2&page=2')).data)).toEqual(['203', '204']);
    expect((await board('&q=20&per_page=2&page=2')).meta).toMatchObject({ total_handlers: 4, pages: 2 });
    const none = await board('&q=zzz');
    expect(none.data).toEqual([]);
    expect(none.meta).toMatchObject({ total_handlers: 0, pages: 1 });
  });

  it('pages the lines that have a filing of the status, with only those filings', async () => {
    const whole = await board('');
    const status = whole.data.find((r) => r.handler_number === '201')!.status;
    const expected = whole.data.filter((r) => r.status === status);
    const lines = numbersOf(expected);
    expect(lines.length).toBeGreaterThan(1);
    const first = await board(`&status=${status}&per_page=1`);
    expect(first.meta).toMatchObject({ total_handlers: lines.length, pages: lines.length });
    expect(first.data).toEqual(expected.filter((r) => r.handler_number === lines[0]));
    const all: BoardRow[] = [];
    for (let page = 1; page <= lines.length; page += 1)
      all.push(...(await board(`&status=${status}&per_page=1&page=${page}`)).data);
    expect(all).toEqual(expected);
  });

  it('refuses bad paging, sort and search values with 422 naming each parameter, never a 500', async () => {
    const cases: Array<[string, string[]]> = [
      ['&page=0', ['page']],
      ['&page=-1&per_page=0', ['page', 'per_page']],
      ['&per_page=201', ['per_page']],
      ['&per_page=abc&sort=name', ['per_page', 'sort']],
      ['&page=1.5&per_page=1e2', ['page', 'per_page']],
      ['&page=1&page=2', ['page']],
      [`&q=${'x'.repeat(201)}`, ['q']],
    ];
    for (const [query, parameters] of cases) {
      const r = await councilCall(
        demo.app,
        demo.tokens.staff,
        'GET',
        `/api/council/board?period_id=${periodId}${query}`,
      );
      expect(r.status, `${query}: ${r.text}`).toBe(422);
      expect(r.body.errors.map((e: { source: { parameter: string } }) => e.source.parameter).sort(), query).toEqual(
        parameters,
      );
    }
    expect((await board('&per_page=200')).meta.per_page).toBe(200);
  });

  it('still exports the whole board as CSV', async () => {
    const csv = await councilCall(demo.app, demo.tokens.staff, 'GET', `/api/council/board.csv?period_id=${periodId}`);
    expect(csv.text.split('\r\n')).toHaveLength(23); // header, 21 rows, the final line end
  });
});
