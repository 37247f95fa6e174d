import { describe, expect, it, vi } from 'vitest';
import { DrupalJsonApiParams } from './params';
import { ApiError } from '../http/errors';
import { createJsonApiClient, ref, resourcePath } from './client';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/vnd.api+json', ...headers } });

describe('JSON:API client', () => {
  it('sends the media type and bearer token, builds the query with drupal-jsonapi-params', async () => {
    const fetchMock = vi.fn(async () => json(200, { data: [] }));
    const client = createJsonApiClient({
      fetch: fetchMock as unknown as typeof fetch,
      getAccessToken: async () => 'tok',
      refresh: vi.fn(),
      onUnauthorized: vi.fn(),
    });
    const params = new DrupalJsonApiParams().addFilter('name', 'alice');
    await client.getAll('/jsonapi/user/user', params);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(decodeURIComponent(url)).toBe('/jsonapi/user/user?filter[name]=alice');
    expect((init.headers as Record<string, string>).Accept).toBe('application/vnd.api+json');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });

  it('retries once after a refresh on 401', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { errors: [{ status: '401', title: 'Unauthorized' }] }))
      .mockResolvedValueOnce(json(200, { data: { type: 'x', id: '1', attributes: { a: 1 } } }));
    const refresh = vi.fn(async () => ({ access_token: 'fresh' }));
    const client = createJsonApiClient({
      fetch: fetchMock,
      getAccessToken: async () => 'old',
      refresh,
      onUnauthorized: vi.fn(),
    });
    const one = await client.getOne('/jsonapi/x/x/1');
    expect(one.a).toBe(1);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[1][1] as RequestInit).headers).toMatchObject({ Authorization: 'Bearer fresh' });
  });

  it('ends the session when the retry is also 401, and parses errors[]', async () => {
    const fetchMock = vi.fn(async () =>
      json(401, { errors: [{ status: '401', title: 'Unauthorized', detail: 'Token revoked' }] }),
    );
    const onUnauthorized = vi.fn();
    const client = createJsonApiClient({
      fetch: fetchMock,
      getAccessToken: async () => 'old',
      refresh: async () => ({ access_token: 'n' }),
      onUnauthorized,
    });
    await expect(client.request('/jsonapi/node/season')).rejects.toMatchObject({
      status: 401,
      message: 'Token revoked',
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onUnauthorized).toHaveBeenCalled();
  });

  it('throws ApiError with the errors and Retry-After', async () => {
    const fetchMock = vi.fn(async () =>
      json(429, { errors: [{ status: '429', title: 'Too Many Requests' }] }, { 'Retry-After': '90' }),
    );
    const client = createJsonApiClient({
      fetch: fetchMock,
      getAccessToken: async () => null,
      refresh: vi.fn(),
      onUnauthorized: vi.fn(),
    });
    const err = await client.request('/jsonapi/node/season').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.retryAfterSeconds).toBe(90);
    expect(err.errors[0].title).toBe('Too Many Requests');
  });
});

describe('JSON:API write helpers', () => {
  const resource = (type: string, id: string, attributes: Record<string, unknown> = {}) =>
    json(200, { data: { type, id, attributes } });
  const clientWith = (fetchMock: ReturnType<typeof vi.fn>) =>
    createJsonApiClient({
      fetch: fetchMock as unknown as typeof fetch,
      getAccessToken: async () => 'tok',
      refresh: vi.fn(),
      onUnauthorized: vi.fn(),
    });
  const sent = (fetchMock: ReturnType<typeof vi.fn>, n = 0) => {
    const [url, init] = fetchMock.mock.calls[n] as unknown as [string, RequestInit];
    return { url, method: init.method, body: JSON.parse(String(init.body)) as unknown };
  };

  it('create POSTs the document with relationships and returns the written resource', async () => {
    const fetchMock = vi.fn(async () => resource('node--apc_form_5', 'f1', { title: 'Form 5' }));
    const created = await clientWith(fetchMock).create(
      'node--apc_form_5',
      { field_amendment_reason: 'typo' },
      { field_season: ref('node--season', 's1'), field_rows: [ref('node--row', 'r1')], field_none: null },
    );
    expect(created).toMatchObject({ id: 'f1', type: 'node--apc_form_5', title: 'Form 5' });
    expect(sent(fetchMock)).toEqual({
      url: '/jsonapi/node/apc_form_5',
      method: 'POST',
      body: {
        data: {
          type: 'node--apc_form_5',
          attributes: { field_amendment_reason: 'typo' },
          relationships: {
            field_season: { data: { type: 'node--season', id: 's1' } },
            field_rows: { data: [{ type: 'node--row', id: 'r1' }] },
            field_none: { data: null },
          },
        },
      },
    });
  });

  it('update PATCHes with the id and the changed guard only when one is given', async () => {
    const fetchMock = vi.fn(async () => resource('user--user', 'u 1', { changed: '2026-01-02T00:00:00Z' }));
    const client = clientWith(fetchMock);
    const saved = await client.update('user--user', 'u 1', { field_phone: '1' }, { changed: '2026-01-01T00:00:00Z' });
    expect(saved.changed).toBe('2026-01-02T00:00:00Z');
    expect(sent(fetchMock)).toEqual({
      url: '/jsonapi/user/user/u%201',
      method: 'PATCH',
      body: {
        data: {
          type: 'user--user',
          id: 'u 1',
          attributes: { field_phone: '1' },
          meta: { changed: '2026-01-01T00:00:00Z' },
        },
      },
    });
    await client.update('user--user', 'u 1', { field_phone: '2' }, { changed: undefined });
    expect(sent(fetchMock, 1).body).toEqual({
      data: { type: 'user--user', id: 'u 1', attributes: { field_phone: '2' } },
    });
  });

  it('relate POSTs the identifiers to the relationship; remove DELETEs', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    const client = clientWith(fetchMock);
    await client.relate('node--handler', 'h1', 'field_handler_packet_confirms', [
      ref('node--handler_packet_confirmation', 'c1'),
    ]);
    expect(sent(fetchMock)).toEqual({
      url: '/jsonapi/node/handler/h1/relationships/field_handler_packet_confirms',
      method: 'POST',
      body: { data: [{ type: 'node--handler_packet_confirmation', id: 'c1' }] },
    });
    await client.remove('node--export_by_country', 'r1');
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect([url, init.method, init.body]).toEqual(['/jsonapi/node/export_by_country/r1', 'DELETE', undefined]);
  });

  it('a write answered with no resource is an error', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    await expect(clientWith(fetchMock).create('node--season', {})).rejects.toBeInstanceOf(ApiError);
  });

  it('resourcePath names the type and id', () => {
    expect(resourcePath('taxonomy_term--pecan_variety')).toBe('/jsonapi/taxonomy_term/pecan_variety');
    expect(resourcePath('node--handler', 'a/b')).toBe('/jsonapi/node/handler/a%2Fb');
  });
});
