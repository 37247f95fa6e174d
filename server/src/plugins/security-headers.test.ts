import http from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, securityHeaderValues } from './security-headers.js';

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

  it('refuse a policy with a part computed per request', () => {
    const withNonce: typeof HELMET_OPTIONS = {
      contentSecurityPolicy: { useDefaults: false, directives: { scriptSrc: ["'self'", () => `'nonce-${Math.random()}'`] } },
    };
    expect(() => securityHeaderValues(withNonce)).toThrow(/computed per request/);
  });
});
