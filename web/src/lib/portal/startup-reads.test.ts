import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../http/errors';
import { buildUrl } from '../jsonapi/client';
import { deserialize, type Entity } from '../jsonapi/deserialize';
import type { ApiEntity } from './entities';
import { invoicesKey, openInvoicesKey } from './invoices';
import { openInvoicesParams } from './invoice-params';
import { currentSeasonPackagesParams, seasonPackagesKey } from './packages';
import { seasonsParams } from './season-params';
import { userWithHandlerParams } from './handler-params';
import { confirmationKey, newestReportKey, queryKeys } from '../query-keys';
import { newestReportParams } from './position-report-params';
import { HANDLER_ID_OF_USER } from './startup-read-list';
import { handlerOf, loadStartupReads, rolesOf } from './startup-reads';
import { awaitingCountersignatureParams } from './transfer-params';
import { awaitingCountersignatureKey } from './transfers-awaiting';

const ref = (type: string, id: string) => ({ data: { type, id } });
const season = (id: string, current: boolean) => ({
  type: 'node--season',
  id,
  attributes: { title: id, field_current_season: current },
});
const period = (id: string, seasonId: string, due: string) => ({
  type: 'node--reporting_period',
  id,
  attributes: { field_due_date: due },
  relationships: { field_season: ref('node--season', seasonId) },
});
const pkg = (id: string, periodId: string) => ({
  type: 'node--reporting_forms_package',
  id,
  attributes: {},
  relationships: { field_reporting_period: ref('node--reporting_period', periodId) },
});
const doc = (data: unknown[], included: unknown[] = [], links: Record<string, unknown> = {}) => ({
  jsonapi: { version: '1.0' },
  data,
  included,
  links,
});
const entry = (status: number, body: unknown) => ({
  headers: { status: [String(status)], 'content-type': ['application/vnd.api+json'] },
  body: JSON.stringify(body),
});

/** The user read's answer: alice, with her handler and its packet confirmations (one per season). */
const userDoc = (role = 'handler') => ({
  jsonapi: { version: '1.0' },
  data: [
    {
      type: 'user--user',
      id: 'u1',
      attributes: { name: 'alice', field_role: role, field_first_name: 'Alice' },
      relationships: { field_user_handler_company: role === 'staff' ? { data: null } : ref('node--handler', 'h1') },
    },
  ],
  included:
    role === 'staff'
      ? []
      : [
          {
            type: 'node--handler',
            id: 'h1',
            attributes: { title: 'Riverbend' },
            relationships: {
              field_handler_packet_confirms: {
                data: [
                  { type: 'node--handler_packet_confirmation', id: 'c-old' },
                  { type: 'node--handler_packet_confirmation', id: 'c-now' },
                ],
              },
            },
          },
          {
            type: 'node--handler_packet_confirmation',
            id: 'c-old',
            attributes: {},
            relationships: { field_season: ref('node--season', 's-old') },
          },
          {
            type: 'node--handler_packet_confirmation',
            id: 'c-now',
            attributes: { field_handler_packet_confirm: true },
            relationships: { field_season: ref('node--season', 's-now') },
          },
        ],
});

function batchServer(answers: Record<string, unknown>) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(answers), { status: 207, headers: { 'Content-Type': 'application/json' } }),
  );
  const transport = {
    fetch: fetchMock as unknown as typeof fetch,
    getAccessToken: async () => 'tok',
    refresh: vi.fn(),
    onUnauthorized: vi.fn(),
  };
  return { fetchMock, transport };
}

const goodAnswers = () => ({
  user: entry(200, userDoc()),
  seasons: entry(200, doc([season('s-now', true), season('s-old', false)])),
  packages: entry(
    200,
    doc([pkg('p3', 'r3'), pkg('p2', 'r2')], [period('r3', 's-now', '2026-12-10'), period('r2', 's-now', '2026-11-10')]),
  ),
  invoices: entry(200, doc([{ type: 'node--invoice', id: 'i1', attributes: { field_amount_due: '10.00' } }])),
  report: entry(200, doc([{ type: 'node--monthly_position_report', id: 'm1', attributes: {} }])),
  awaiting: entry(200, doc([{ type: 'node--apc_form_4', id: 'f4', attributes: { title: 'APC Form 4-102-101' } }])),
});

describe('the start-up reads', () => {
  it("asks for the user and the pages' own queries in one batch, with the bearer token", async () => {
    const { fetchMock, transport } = batchServer(goodAnswers());
    await loadStartupReads(new QueryClient(), 'alice', transport);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/subrequests?_format=json');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    // The handler's reads wait for the user's answer and name its handler id with the token as it is, unencoded.
    const withToken = (uri: string) => uri.split(encodeURIComponent(HANDLER_ID_OF_USER)).join(HANDLER_ID_OF_USER);
    expect(JSON.parse(String(init?.body))).toEqual([
      { requestId: 'user', uri: buildUrl('/jsonapi/user/user', userWithHandlerParams('alice')), action: 'view' },
      { requestId: 'seasons', uri: buildUrl('/jsonapi/node/season', seasonsParams()), action: 'view' },
      {
        requestId: 'report',
        uri: buildUrl('/jsonapi/node/monthly_position_report', newestReportParams()),
        action: 'view',
      },
      {
        requestId: 'packages',
        uri: withToken(
          buildUrl('/jsonapi/node/reporting_forms_package', currentSeasonPackagesParams(HANDLER_ID_OF_USER)),
        ),
        action: 'view',
        waitFor: ['user'],
      },
      {
        requestId: 'invoices',
        uri: withToken(buildUrl('/jsonapi/node/invoice', openInvoicesParams(HANDLER_ID_OF_USER))),
        action: 'view',
        waitFor: ['user'],
      },
      {
        requestId: 'awaiting',
        uri: withToken(buildUrl('/jsonapi/node/apc_form_4', awaitingCountersignatureParams(HANDLER_ID_OF_USER))),
        action: 'view',
        waitFor: ['user'],
      },
    ]);
    expect(String(init?.body)).toContain(
      'filter%5Bfield_handler.id%5D={{user.body@$.data[0].relationships.field_user_handler_company.data.id}}',
    );
  });

  it("seeds every key the dashboard reads: user, handler, seasons, the current season's packages, unpaid invoices, report, confirmation", async () => {
    const client = new QueryClient();
    const { transport } = batchServer(goodAnswers());
    const { user, roles, handler } = await loadStartupReads(client, 'alice', transport);
    expect([user.id, handler?.id, roles]).toEqual(['u1', 'h1', ['authenticated', 'handler']]);
    expect(client.getQueryData<Entity>(queryKeys.me)?.id).toBe('u1');
    expect(client.getQueryData<Entity>(queryKeys.handler('h1'))?.title).toBe('Riverbend');
    const ids = (key: readonly unknown[]) => (client.getQueryData<Entity[]>(key) ?? []).map((e) => e.id);
    expect(ids(queryKeys.seasons)).toEqual(['s-now', 's-old']);
    expect(ids(seasonPackagesKey('h1', 's-now'))).toEqual(['p3', 'p2']);
    // Other seasons are read when asked for: their size grows with the seasons.
    expect(client.getQueryData(seasonPackagesKey('h1', 's-old'))).toBeUndefined();
    expect(ids(openInvoicesKey('h1'))).toEqual(['i1']);
    expect(ids(awaitingCountersignatureKey('h1'))).toEqual(['f4']);
    // The invoices page reads its full list (periods, forms, PDFs) itself, when visited.
    expect(client.getQueryData(invoicesKey('h1'))).toBeUndefined();
    expect(client.getQueryData<Entity>(newestReportKey)?.id).toBe('m1');
    expect(client.getQueryData<Entity>(confirmationKey('h1', 's-now'))?.id).toBe('c-now');
  });

  it.each([
    ['user', 403],
    ['seasons', 500],
    ['packages', 403],
  ] as const)(
    "fails with the status of a failed %s read (the login sequence's own): message: %i",
    async (read, status) => {
      const answers = { ...goodAnswers(), [read]: entry(status, { errors: [{ status: String(status) }] }) };
      const { transport } = batchServer(answers);
      const error = await loadStartupReads(new QueryClient(), 'alice', transport).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect((error as ApiError).message).toBe(`message: ${status}`);
    },
  );

  it('fails with 404 when no user has that name', async () => {
    const { transport } = batchServer({
      ...goodAnswers(),
      user: entry(200, doc([])),
      packages: entry(424, { errors: [{ status: '424' }] }),
    });
    const error = await loadStartupReads(new QueryClient(), 'alice', transport).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe('message: 404');
  });

  it('leaves a failed or unfinished dashboard read to its card', async () => {
    const answers = {
      ...goodAnswers(),
      invoices: entry(
        200,
        doc([{ type: 'node--invoice', id: 'i1', attributes: {} }], [], {
          next: { href: '/jsonapi/node/invoice?page%5Boffset%5D=200' },
        }),
      ),
      report: entry(500, { errors: [{ status: '500' }] }),
    };
    const client = new QueryClient();
    const { transport } = batchServer(answers);
    await loadStartupReads(client, 'alice', transport);
    expect(client.getQueryData(openInvoicesKey('h1'))).toBeUndefined();
    expect(client.getQueryData(newestReportKey)).toBeUndefined();
    expect(client.getQueryData(queryKeys.seasons)).toBeDefined();
  });

  it('signs staff in (no handler): the reads that wait for a handler id answer 424 and are left unused', async () => {
    const noHandler = entry(424, { errors: [{ status: '424' }] });
    const client = new QueryClient();
    const { transport } = batchServer({
      ...goodAnswers(),
      user: entry(200, userDoc('staff')),
      packages: noHandler,
      invoices: noHandler,
    });
    const { roles, handler } = await loadStartupReads(client, 'staff', transport);
    expect(roles).toEqual(['authenticated', 'staff']);
    expect(handler).toBeNull();
    expect(client.getQueryData(queryKeys.seasons)).toBeDefined();
  });

  it('reads the user with its handler, analytics and confirmations; roles as /oauth/debug gives them', () => {
    expect(decodeURIComponent(userWithHandlerParams('alice').getQueryString())).toBe(
      'filter[name]=alice&include=field_user_handler_company,field_user_handler_company.field_handler_analytics,field_user_handler_company.field_handler_packet_confirms',
    );
    const user = deserialize({
      data: {
        type: 'user--user',
        id: 'u1',
        attributes: { name: 'alice', field_role: 'handler' },
        relationships: { field_user_handler_company: ref('node--handler', 'h1') },
      },
      included: [{ type: 'node--handler', id: 'h1', attributes: { title: 'Riverbend' } }],
    }) as ApiEntity<'user--user'>;
    expect(rolesOf(user)).toEqual(['authenticated', 'handler']);
    expect(handlerOf(user)?.id).toBe('h1');
    const staff = deserialize({
      data: {
        type: 'user--user',
        id: 'u2',
        attributes: { name: 'staff', field_role: 'staff' },
        relationships: { field_user_handler_company: { data: null } },
      },
    }) as ApiEntity<'user--user'>;
    expect(rolesOf(staff)).toEqual(['authenticated', 'staff']);
    expect(handlerOf(staff)).toBeNull();
  });
});
