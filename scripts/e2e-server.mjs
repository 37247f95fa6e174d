// The server the browser suite drives: the built app on a fresh embedded database with the demo data set.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const server = spawn(process.execPath, ['server/dist/main.js'], {
  cwd: new URL('..', import.meta.url).pathname,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '3199',
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${join(dir, 'portal.sqlite')}`,
    PORTAL_DEMO_DATA: '1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
