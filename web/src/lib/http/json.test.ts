import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import { createAuthorizedJsonClient, createPublicJsonClient, withQuery } from './json';

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function transport(fetchMock: ReturnType<typeof vi.fn>, token = 'old') {
  return {
    fetch: fetchMock as unknown as typeof fetch,
    getAccessToken: async () => token,
    refresh: vi.fn(async () => ({ access_token: 'fresh' })),
    onUnauthorized: vi.fn(),
  };
}

const callOf = (fetchMock: ReturnType<typeof vi.fn>, n = 0) =>
  fetchMock.mock.calls[n] as unknown as [string, RequestInit & { headers: Record<string, string> }];

describe('withQuery', () => {
  it('leaves out empty values and appends to a query already there', () => {
    expect(withQuery('/a', { x: 1, y: undefined, z: null, w: '', v: false })).toBe('/a?x=1&v=false');
    expect(withQuery('/a?b=2', { c: 'd e' })).toBe('/a?b=2&c=d+e');
    expect(withQuery('/a')).toBe('/a');
  });
});

describe('the JSON client with the bearer token', () => {
  it('sends the token, the query, the JSON body and the abort signal, and reads the answer', async () => {
    const fetchMock = vi.fn(async () => json(200, { ok: true }));
    const client = createAuthorizedJsonClient('/api/council', transport(fetchMock));
    const signal = new AbortController().signal;
    const answer = await client.post<{ ok: boolean }>('/users', { name: 'a' }, { params: { page: 2 }, signal });
    expect(answer).toEqual({ ok: true });
    const [url, init] = callOf(fetchMock);
    expect(url).toBe('/api/council/users?page=2');
    expect(init.method).toBe('POST');
    expect(init.signal).toBe(signal);
    expect(init.body).toBe('{"name":"a"}');
    expect(init.headers).toMatchObject({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Authorization: 'Bearer old',
    });
  });

  it('sends no body and no Content-Type on a GET, and reads an empty answer as null', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
    const client = createAuthorizedJsonClient('', transport(fetchMock));
    expect(await client.delete('/api/account/sessions/1')).toBeNull();
    expect(await client.get('/api/x')).toBeNull();
    const [, init] = callOf(fetchMock, 1);
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect(init.headers['Content-Type']).toBeUndefined();
  });

  it('refreshes the token on a 401 and sends the call again (as the password change now does)', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, { errors: [{ status: '401' }] }))
      .mockResolvedValueOnce(json(204, undefined));
    const t = transport(fetchMock);
    const client = createAuthorizedJsonClient('', t);
    await client.post('/api/account/password', { current_password: 'a', new_password: 'b' });
    expect(t.refresh).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(callOf(fetchMock, 1)[1].headers.Authorization).toBe('Bearer fresh');
    expect(callOf(fetchMock, 1)[1].body).toBe(callOf(fetchMock, 0)[1].body);
    expect(t.onUnauthorized).not.toHaveBeenCalled();
  });

  it('refreshes on a 401 of a read with query parameters (as the industry figures now do)', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(401, {}))
      .mockResolvedValueOnce(json(200, { months: [] }));
    const client = createAuthorizedJsonClient('', transport(fetchMock));
    expect(await client.get('/api/analytics/industry-monthly', { params: { season_id: 's 1' } })).toEqual({
      months: [],
    });
    expect(callOf(fetchMock, 1)[0]).toBe('/api/analytics/industry-monthly?season_id=s+1');
  });

  it('throws a failed answer as ApiError with its errors', async () => {
    const fetchMock = vi.fn(async () =>
      json(422, { errors: [{ detail: 'The current password is not right.', source: { pointer: '/current' } }] }),
    );
    const error = await createAuthorizedJsonClient('', transport(fetchMock))
      .post('/api/account/password', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'The current password is not right.' });
  });
});

describe('the JSON client without a token', () => {
  it('sends no Authorization and throws a 401 as it is, with no refresh', async () => {
    const fetchMock = vi.fn(async () => json(401, { error: 'invalid_grant', error_description: 'Bad code' }));
    const client = createPublicJsonClient(fetchMock as unknown as typeof fetch);
    const error = await client.post('/api/sso/callback', { code: 'c' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, message: 'Bad code' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(callOf(fetchMock)[1].headers.Authorization).toBeUndefined();
  });
});
