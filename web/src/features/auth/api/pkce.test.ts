import { describe, expect, it } from 'vitest';
import { codeChallengeS256, createCodeVerifier } from './pkce';
import { returnPathFrom, safeReturnPath } from './redirect';

describe('PKCE', () => {
  it('matches the RFC 7636 example', async () => {
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
  it('creates verifiers of the allowed length and alphabet', () => {
    const v = createCodeVerifier();
    expect(v.length).toBeGreaterThanOrEqual(43);
    expect(v).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('return path after sign-in', () => {
  it('accepts app paths and refuses other origins', () => {
    expect(safeReturnPath('/dashboard/invoices?x=1')).toBe('/dashboard/invoices?x=1');
    expect(safeReturnPath('//evil.example/x')).toBe('/dashboard');
    expect(safeReturnPath('https://evil.example')).toBe('/dashboard');
    expect(safeReturnPath('/signin')).toBe('/dashboard');
    expect(safeReturnPath(undefined)).toBe('/dashboard');
  });
  it('prefers router state, then ?from=', () => {
    expect(returnPathFrom({ from: { pathname: '/dashboard/help', search: '' } }, '?from=/dashboard/x')).toBe(
      '/dashboard/help',
    );
    expect(returnPathFrom(null, '?from=%2Fdashboard%2Ftransfers')).toBe('/dashboard/transfers');
  });
});
