import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files of the web app's build that index.html loads but that are missing (index.html itself when there is
 * none). A deleted or half-written web/dist would otherwise give a server that answers 404 to every page.
 * scripts/web-build-check.mjs makes the same check before `npm start` decides whether to build.
 */
export function missingWebFiles(dist: string): string[] {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return ['index.html'];
  const named = [...readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/([^"?#]+)"/g)].map((m) => m[1]!);
  return named.filter((file) => !existsSync(join(dist, file)));
}
