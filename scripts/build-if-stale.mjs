// Builds the contract, the server and the web app when a source file is newer than the last build.
// `npm start` runs it first, so `npm install && npm start` is all a fresh machine needs.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingWebFiles } from './web-build-check.mjs';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'node_modules', '.portal-build-stamp');
const sources = [
  'contract/src',
  'server/src',
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/scripts',
  'web/public',
  'package-lock.json',
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), info.mtimeMs);
}

export function buildIfStale({ force = false } = {}) {
  const whole = existsSync(join(root, 'server/dist/main.js')) && missingWebFiles(join(root, 'web/dist')).length === 0;
  const built = existsSync(stamp) && whole ? statSync(stamp).mtimeMs : 0;
  const changed = Math.max(...sources.map((s) => newest(join(root, s))));
  if (!force && built > changed) return false;
  console.log(
    whole
      ? 'Building the portal (contract, server, web app)...'
      : 'The build is missing or incomplete: building the portal (contract, server, web app)...',
  );
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, new Date().toISOString());
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfStale({ force: process.argv.includes('--force') });
