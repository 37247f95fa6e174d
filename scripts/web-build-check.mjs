// Whether web/dist holds a whole build: index.html and every file it loads. A build cut short (or a deleted
// folder) leaves some of them missing, and a server on it would answer 404 to every page.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files under web/dist that index.html names but that are not there (index.html itself if it is missing). */
export function missingWebFiles(dist) {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return ['index.html'];
  const html = readFileSync(index, 'utf8');
  const local = [...html.matchAll(/(?:src|href)="\/([^"?#]+)"/g)].map((m) => m[1]);
  return local.filter((file) => !existsSync(join(dist, file)));
}
