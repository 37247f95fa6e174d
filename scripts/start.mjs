// npm start: build what is stale, then serve the portal (http://localhost:3000, embedded database, demo data).
import { spawn } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

buildIfStale();
const server = spawn(process.execPath, ['server/dist/main.js'], {
  stdio: 'inherit',
  cwd: new URL('..', import.meta.url).pathname,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
