/**
 * JavaScript a route loads, gzipped, from the built web app (web/dist): the entry script of index.html with every
 * chunk it imports statically, plus the lazy chunks of the route's pages and their static imports. Vite writes no
 * manifest here, so the import graph is read from the chunks themselves (`from"./x.js"`, `import"./x.js"`).
 * Chunks a page only loads on an action (e.g. the sign-in request code after "Sign in") are not counted.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Routes and the lazy page chunks they render (names as in web/src/app/router.tsx). */
export const ROUTES: Record<string, string[]> = {
  '/signin': ['signin-page'],
  '/dashboard': ['dashboard-layout', 'dashboard-home'],
};

/** Static imports of one chunk (relative specifiers only). */
export function staticImports(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) out.add(m[1]);
  return [...out];
}

export function closure(assets: string, roots: string[], read: (file: string) => string): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const dep of staticImports(read(join(assets, file)))) stack.push(dep);
  }
  return seen;
}

export interface RouteSize {
  route: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

export function routeSizes(dist: string): RouteSize[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error(`no entry script in ${dist}/index.html`);
  const assets = join(dist, 'assets');
  const cache = new Map<string, string>();
  const read = (path: string) => {
    if (!cache.has(path)) cache.set(path, readFileSync(path, 'utf8'));
    return cache.get(path)!;
  };
  const files = readdirSync(assets);
  return Object.entries(ROUTES).map(([route, pages]) => {
    const roots = [
      entry,
      ...pages.map((p) => {
        const chunk = files.find(
          (f) => f.startsWith(`${p}-`) && f.endsWith('.js') && /^[A-Za-z0-9_-]{8}$/.test(f.slice(p.length + 1, -3)),
        );
        if (!chunk) throw new Error(`no chunk for page ${p} in ${assets}`);
        return chunk;
      }),
    ];
    const set = closure(assets, roots, read);
    let rawBytes = 0;
    let gzipBytes = 0;
    for (const f of set) {
      const content = read(join(assets, f));
      rawBytes += Buffer.byteLength(content);
      gzipBytes += gzipSync(content, { level: 9 }).length;
    }
    return { route, files: set.size, rawBytes, gzipBytes };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of routeSizes(process.argv[2] ?? 'web/dist')) {
    console.log(
      `${r.route}: ${r.files} files, ${(r.rawBytes / 1024).toFixed(0)} KB raw, ${(r.gzipBytes / 1024).toFixed(1)} KB gzip`,
    );
  }
}
