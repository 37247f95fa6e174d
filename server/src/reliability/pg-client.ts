import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore) for the server's major version, from Debian's
 * `postgresql-client-<major>`. pg_dump refuses a server newer than itself, and an archive is best read by the
 * pg_restore that matches the pg_dump which wrote it, so both need the server's major version or newer.
 */
export type PgTool = 'pg_dump' | 'pg_restore';

const DEBIAN_CLIENTS = '/usr/lib/postgresql';

/** The major version a client program reports (`pg_dump (PostgreSQL) 15.20 (Debian ...)` -> 15), or null. */
export function clientMajor(path: string): number | null {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const m = r.status === 0 ? /\(PostgreSQL\)\s+(\d+)/.exec(r.stdout) : null;
  return m ? Number(m[1]) : null;
}

/** The program to run: Debian's versioned one (the server's major first, else the oldest newer one), else PATH's. */
export function findPgTool(tool: PgTool, serverMajor: number): string | null {
  const installed = existsSync(DEBIAN_CLIENTS)
    ? readdirSync(DEBIAN_CLIENTS)
        .filter((d) => /^\d+$/.test(d))
        .map(Number)
        .filter((v) => v >= serverMajor)
        .sort((a, b) => a - b)
    : [];
  for (const major of installed) {
    const path = join(DEBIAN_CLIENTS, String(major), 'bin', tool);
    if (existsSync(path)) return path;
  }
  const onPath = clientMajor(tool);
  return onPath !== null && onPath >= serverMajor ? tool : null;
}

const installCommand = (major: number) => `apt-get update && apt-get install -y postgresql-client-${major}`;

/**
 * findPgTool, installing the client first when it is missing and this runs as root (as `npm test` does for
 * Chromium); otherwise one line saying what to run.
 */
export function requirePgTool(tool: PgTool, serverMajor: number): string {
  const found = findPgTool(tool, serverMajor);
  if (found) return found;
  if (process.getuid?.() === 0) {
    console.error(
      `Installing Debian's postgresql-client-${serverMajor} for ${tool} (${installCommand(serverMajor)})...`,
    );
    try {
      execSync(
        `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client-${serverMajor}`,
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
    } catch {
      throw new Error(
        `installing postgresql-client-${serverMajor} failed: run \`${installCommand(serverMajor)}\` and try again.`,
      );
    }
    const installed = findPgTool(tool, serverMajor);
    if (installed) return installed;
  }
  throw new Error(
    `${tool} ${serverMajor} or newer is missing (the database server is PostgreSQL ${serverMajor}): ` +
      `run \`sudo ${installCommand(serverMajor).replace('&& apt-get', '&& sudo apt-get')}\` and try again.`,
  );
}
