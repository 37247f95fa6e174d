import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { underPrefix, DATA_PREFIXES, NOT_PAGE_PREFIXES } from './api-paths.js';
import { API_HELMET_OPTIONS, HELMET_OPTIONS, securityHeaderValues } from './security-headers.js';

/** The headers a real Node response carries after Helmet's own middleware ran on it. */
async function headersHelmetSets(options: typeof HELMET_OPTIONS): Promise<Record<string, string>> {
  const middleware = helmet(options);
  const server = http.createServer((req, res) => middleware(req, res, () => res.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    return Object.fromEntries([...response.headers].filter(([name]) => !transport.has(name)));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('security headers read once', () => {
  it('are exactly the headers Helmet sets on a real response with the portal policy', async () => {
    const once = securityHeaderValues();
    expect(once).toEqual(await headersHelmetSets(HELMET_OPTIONS));
    expect(once['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(once['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(once).not.toHaveProperty('x-powered-by');
  });

  it('for data answers are exactly what Helmet sets with the API policy: OWASP REST set, no HTML-only header', async () => {
    const once = securityHeaderValues(API_HELMET_OPTIONS);
    expect(once).toEqual(await headersHelmetSets(API_HELMET_OPTIONS));
    expect(once).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
  });

  it('refuse a policy with a part computed per request', () => {
    const withNonce: typeof HELMET_OPTIONS = {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { scriptSrc: ["'self'", () => `'nonce-${Math.random()}'`] },
      },
    };
    expect(() => securityHeaderValues(withNonce)).toThrow(/computed per request/);
  });
});

describe('data paths', () => {
  it('are the API prefixes and what is under them, by path or query, and nothing that only starts alike', () => {
    for (const url of [
      '/jsonapi',
      '/jsonapi/node/season?sort=title',
      '/api/council/users',
      '/oauth/token',
      '/healthz',
      '/healthz?x=1',
      '/subrequests',
    ])
      expect(underPrefix(url, DATA_PREFIXES), url).toBe(true);
    for (const url of [
      '/',
      '/dashboard',
      '/apis',
      '/api-docs',
      '/jsonapix',
      '/files/x.pdf',
      '/assets/a.js',
      '/healthzz',
    ])
      expect(underPrefix(url, DATA_PREFIXES), url).toBe(false);
    expect(underPrefix('/files/x.pdf', NOT_PAGE_PREFIXES)).toBe(true);
    expect(underPrefix('/assets/a.js', NOT_PAGE_PREFIXES)).toBe(true);
    expect(underPrefix('/dashboard/forms', NOT_PAGE_PREFIXES)).toBe(false);
  });
});
