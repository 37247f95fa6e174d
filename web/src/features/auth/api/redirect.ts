/** Where to go after sign-in: a same-site path under the app, never another origin; /dashboard by default. */
export function safeReturnPath(candidate: unknown, fallback = '/dashboard'): string {
  if (typeof candidate !== 'string' || candidate.length === 0) return fallback;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return fallback;
  const path = candidate.split(/[?#]/)[0];
  if (path === '/' || path === '/signin' || path === '/signup' || path === '/auth0loginCallback') return fallback;
  return candidate;
}

/** Reads the return path from router state ({from: {pathname, search}}) or from `?from=`. */
export function returnPathFrom(state: unknown, search: string): string {
  const from = (state as { from?: { pathname?: string; search?: string; hash?: string } } | null)?.from;
  if (from?.pathname) return safeReturnPath(`${from.pathname}${from.search ?? ''}${from.hash ?? ''}`);
  return safeReturnPath(new URLSearchParams(search).get('from'));
}
