/**
 * Which addresses answer data rather than the web app. One list for the web app's not-found handler (plugins/web.ts:
 * these never get index.html) and the security headers (plugins/security-headers.ts: data answers get the API's set).
 */

/** Paths that answer JSON, never a page. */
export const DATA_PREFIXES = ['/jsonapi', '/oauth', '/healthz', '/api', '/subrequests'] as const;

/** Paths the web app never answers with its index.html: the data paths, the files and the build's assets. */
export const NOT_PAGE_PREFIXES = [...DATA_PREFIXES, '/files', '/assets'] as const;

/**
 * Whether a request's address (path and query) is one of the prefixes or under it: `/api` and `/api/x?y` are,
 * `/apis` is not. No split and no pattern: the security headers' hook asks it for every request.
 */
export function underPrefix(url: string, prefixes: readonly string[]): boolean {
  for (const prefix of prefixes) {
    if (!url.startsWith(prefix)) continue;
    const next = url.charCodeAt(prefix.length);
    if (Number.isNaN(next) || next === 0x2f /* / */ || next === 0x3f /* ? */) return true;
  }
  return false;
}
