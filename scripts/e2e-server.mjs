// The server the browser suite drives: the built app on a fresh embedded database with the demo data set, with
// a catch-all SMTP server (e2e/support/mail-server.ts) for its mail and a local OpenID provider
// (e2e/support/oidc-provider.ts) for single sign-on, both on loopback.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const port = process.env.E2E_PORT ?? '3199';
// The helpers sit just below the portal's port (3198 SMTP, 3197 mail API, 3196 OpenID provider by default), so two
// suites on different E2E_PORTs do not collide; e2e/support/portal.ts derives the same numbers.
const smtpPort = String(Number(port) - 1);
const mailHttpPort = String(Number(port) - 2);
const oidcPort = String(Number(port) - 3);
const publicUrl = `http://127.0.0.1:${port}`;
const oidc = {
  OIDC_ISSUER: `http://127.0.0.1:${oidcPort}`,
  OIDC_CLIENT_ID: 'portal-e2e',
  OIDC_CLIENT_SECRET: 'portal-e2e-secret',
};

const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const children = [];
let stopping = false;

function start(name, args, env) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  children.push(child);
  child.on('exit', (code) => {
    if (stopping) return;
    console.error(`[e2e] ${name} exited (${code}); stopping`);
    stop('SIGTERM', code ?? 1);
  });
  return child;
}

function stop(signal, code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill(signal);
  setTimeout(() => process.exit(code), 500).unref();
}

/** Resolves when something listens on the port (up to 20 s). */
async function listening(p) {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise((resolve) => {
      const s = connect(Number(p), '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${p}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
// If the test runner goes away without stopping us (killed, or its output pipe closed), stop too: no orphans
// holding the ports. Playwright starts this script with `exec`, so the parent is the runner itself.
const runner = process.ppid;
setInterval(() => {
  try {
    process.kill(runner, 0);
  } catch {
    stop('SIGTERM');
  }
}, 2000).unref();

start('mail server', ['--import', 'tsx', 'e2e/support/mail-server.ts'], {
  E2E_SMTP_PORT: smtpPort,
  E2E_MAIL_HTTP_PORT: mailHttpPort,
});
start('OpenID provider', ['--import', 'tsx', 'e2e/support/oidc-provider.ts'], {
  E2E_OIDC_PORT: oidcPort,
  E2E_PUBLIC_URL: publicUrl,
  ...oidc,
});
await Promise.all([listening(smtpPort), listening(mailHttpPort), listening(oidcPort)]);

const server = start('portal server', ['server/dist/main.js'], {
  PORT: port,
  HOST: '127.0.0.1',
  DATABASE_URL: `sqlite:${join(dir, 'portal.sqlite')}`,
  PORTAL_DEMO_DATA: '1',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'test',
  PUBLIC_URL: publicUrl,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  ...oidc,
});
server.on('exit', (code) => stop('SIGTERM', code ?? 0));
