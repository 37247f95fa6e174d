import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/http/errors';
import { buildUrl } from '../../../lib/jsonapi/client';
import { deserialize, type Entity } from '../../../lib/jsonapi/deserialize';
import { invoicesKey, openInvoicesKey, openInvoicesParams } from '../../../lib/portal/invoices';
import { currentSeasonPackagesParams, seasonPackagesKey } from '../../../lib/portal/packages';
import { seasonsParams } from '../../../lib/portal/seasons';
import { queryKeys } from '../../../lib/query-keys';
import { confirmationKey } from '../hooks/use-packet-confirmation';
import { newestReportKey, newestReportParams } from './position-reports';
import { handlerOf, loadPortalData, rolesOf, userWithHandlerParams } from './startup-reads';

const ref = (type: string, id: string) => ({ data: { type, id } });
const season = (id: string, current: boolean) => ({ type: 'node--season', id, attributes: { title: id, field_current_season: current } });
const period = (id: string, seasonId: string, due: string) => ({
  type: 'node--reporting_period', id, attributes: { field_due_date: due }, relationships: { field_season: ref('node--season', seasonId) },
});
const pkg = (id: string, periodId: string) => ({ type: 'node--reporting_forms_package', id, attributes: {}, relationships: { field_reporting_period: ref('node--reporting_period', periodId) } });
const doc = (data: unknown[], included: unknown[] = [], links: Record<string, unknown> = {}) => ({ jsonapi: { version: '1.0' }, data, included, links });
const entry = (status: number, body: unknown) => ({ headers: { status: [String(status)], 'content-type': ['application/vnd.api+json'] }, body: JSON.stringify(body) });

/** The handler as the user read gives it: with its packet confirmations (one per season). */
const handler: Entity = deserialize({
  data: { type: 'node--handler', id: 'h1', attributes: { title: 'Riverbend' }, relationships: { field_handler_packet_confirms: { data: [{ type: 'node--handler_packet_confirmation', id: 'c-old' }, { type: 'node--handler_packet_confirmation', id: 'c-now' }] } } },
  included: [
    { type: 'node--handler_packet_confirmation', id: 'c-old', attributes: {}, relationships: { field_season: ref('node--season', 's-old') } },
    { type: 'node--handler_packet_confirmation', id: 'c-now', attributes: { field_handler_packet_confirm: true }, relationships: { field_season: ref('node--season', 's-now') } },
  ],
}) as Entity;

function batchServer(answers: Record<string, unknown>) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(answers), { status: 207, headers: { 'Content-Type': 'application/json' } }));
  const transport = { fetch: fetchMock as unknown as typeof fetch, getAccessToken: async () => 'tok', refresh: vi.fn(), onUnauthorized: vi.fn() };
  return { fetchMock, transport };
}

const goodAnswers = () => ({
  seasons: entry(200, doc([season('s-now', true), season('s-old', false)])),
  packages: entry(200, doc([pkg('p3', 'r3'), pkg('p2', 'r2')], [period('r3', 's-now', '2026-12-10'), period('r2', 's-now', '2026-11-10')])),
  invoices: entry(200, doc([{ type: 'node--invoice', id: 'i1', attributes: { field_amount_due: '10.00' } }])),
  report: entry(200, doc([{ type: 'node--monthly_position_report', id: 'm1', attributes: {} }])),
});

describe('the start-up reads', () => {
  it('asks for the pages\' own queries in one batch, with the bearer token', async () => {
    const { fetchMock, transport } = batchServer(goodAnswers());
    await loadPortalData(new QueryClient(), handler, transport);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/subrequests?_format=json');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(String(init?.body))).toEqual([
      { requestId: 'seasons', uri: buildUrl('/jsonapi/node/season', seasonsParams()), action: 'view' },
      { requestId: 'packages', uri: buildUrl('/jsonapi/node/reporting_forms_package', currentSeasonPackagesParams('h1')), action: 'view' },
      { requestId: 'invoices', uri: buildUrl('/jsonapi/node/invoice', openInvoicesParams('h1')), action: 'view' },
      { requestId: 'report', uri: buildUrl('/jsonapi/node/monthly_position_report', newestReportParams()), action: 'view' },
    ]);
  });

  it('seeds every key the dashboard reads: seasons, the current season\'s packages, unpaid invoices, report, confirmation', async () => {
    const client = new QueryClient();
    const { transport } = batchServer(goodAnswers());
    await loadPortalData(client, handler, transport);
    const ids = (key: readonly unknown[]) => (client.getQueryData<Entity[]>(key) ?? []).map((e) => e.id);
    expect(ids(queryKeys.seasons)).toEqual(['s-now', 's-old']);
    expect(ids(seasonPackagesKey('h1', 's-now'))).toEqual(['p3', 'p2']);
    // Other seasons and the forms pages' all-seasons list are read when asked for: their size grows with the seasons.
    expect(client.getQueryData(seasonPackagesKey('h1', 's-old'))).toBeUndefined();
    expect(client.getQueryData(queryKeys.formsPackages('h1'))).toBeUndefined();
    expect(ids(openInvoicesKey('h1'))).toEqual(['i1']);
    // The invoices page reads its full list (periods, forms, PDFs) itself, when visited.
    expect(client.getQueryData(invoicesKey('h1'))).toBeUndefined();
    expect(client.getQueryData<Entity>(newestReportKey)?.id).toBe('m1');
    expect(client.getQueryData<Entity>(confirmationKey('h1', 's-now'))?.id).toBe('c-now');
  });

  it('fails with the status of a failed seasons or packages read (the login sequence\'s own)', async () => {
    const answers = { ...goodAnswers(), packages: entry(403, { errors: [{ status: '403' }] }) };
    const { transport } = batchServer(answers);
    const error = await loadPortalData(new QueryClient(), handler, transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).message).toBe('message: 403');
  });

  it('leaves a failed or unfinished dashboard read to its card', async () => {
    const answers = {
      ...goodAnswers(),
      invoices: entry(200, doc([{ type: 'node--invoice', id: 'i1', attributes: {} }], [], { next: { href: '/jsonapi/node/invoice?page%5Boffset%5D=200' } })),
      report: entry(500, { errors: [{ status: '500' }] }),
    };
    const client = new QueryClient();
    const { transport } = batchServer(answers);
    await loadPortalData(client, handler, transport);
    expect(client.getQueryData(openInvoicesKey('h1'))).toBeUndefined();
    expect(client.getQueryData(newestReportKey)).toBeUndefined();
    expect(client.getQueryData(queryKeys.seasons)).toBeDefined();
  });

  it('reads only the seasons for staff (no handler)', async () => {
    const { fetchMock, transport } = batchServer({ seasons: goodAnswers().seasons });
    await loadPortalData(new QueryClient(), null, transport);
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body)).map((r: { requestId: string }) => r.requestId)).toEqual(['seasons']);
  });

  it('reads the user with its handler, analytics and confirmations; roles as /oauth/debug gives them', () => {
    expect(decodeURIComponent(userWithHandlerParams('alice').getQueryString())).toBe(
      'filter[name]=alice&include=field_user_handler_company,field_user_handler_company.field_handler_analytics,field_user_handler_company.field_handler_packet_confirms',
    );
    const user = deserialize({
      data: { type: 'user--user', id: 'u1', attributes: { name: 'alice', field_role: 'handler' }, relationships: { field_user_handler_company: ref('node--handler', 'h1') } },
      included: [{ type: 'node--handler', id: 'h1', attributes: { title: 'Riverbend' } }],
    }) as Entity;
    expect(rolesOf(user)).toEqual(['authenticated', 'handler']);
    expect(handlerOf(user)?.id).toBe('h1');
    const staff = deserialize({ data: { type: 'user--user', id: 'u2', attributes: { name: 'staff', field_role: 'staff' }, relationships: { field_user_handler_company: { data: null } } } }) as Entity;
    expect(rolesOf(staff)).toEqual(['authenticated', 'staff']);
    expect(handlerOf(staff)).toBeNull();
  });
});
