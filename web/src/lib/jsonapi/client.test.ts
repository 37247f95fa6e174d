import { describe, expect, it, vi } from 'vitest';
import { DrupalJsonApiParams } from './params';
import { ApiError } from '../http/errors';
import { createJsonApiClient } from './client';

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
