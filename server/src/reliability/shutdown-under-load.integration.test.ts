import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { freePort } from '../test-support/free-port.js';

/**
 * The short version of `npm run soak`'s last step: the real server process under 40 concurrent keep-alive
 * connections gets SIGTERM; every request sent before the signal is answered 200 (none cut off), and the process
 * exits 0. Requests sent after the signal may be refused (503 or a closed connection): the server is going away.
 */
const root = new URL('../../..', import.meta.url).pathname;
const CONNECTIONS = 40;

interface Outcome {
  sentAt: number;
  status: number | null;
}

function get(agent: http.Agent, port: number, path: string): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ sentAt, status: res.statusCode ?? 0 }));
      res.on('error', () => resolve({ sentAt, status: null }));
    });
    req.on('error', () => resolve({ sentAt, status: null }));
  });
}

describeEachDatabase('shutdown under load', (target) => {
  it(`finishes every request sent before SIGTERM with ${CONNECTIONS} connections busy, then exits 0`, async () => {
    const port = await freePort();
    const env: Record<string, string> = {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PORTAL_DEMO_DATA: '0',
      WEB_DIST: 'none',
      NODE_ENV: 'development',
    };
    const dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
    let schema: string | undefined;
    if (target.dialect === 'postgres') {
      schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      Object.assign(env, { DATABASE_URL: target.url, DATABASE_SCHEMA: schema });
    } else {
      env.DATABASE_URL = `sqlite:${join(dir, 'portal.sqlite')}`;
    }
    // Node with tsx's loader in the same process: the tsx command would relay SIGTERM through a parent that gives up
    // (and kills the server) when a busy child does not acknowledge the signal within 30 ms.
    const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/src/main.ts')], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout.on('data', (d) => {
      output += String(d);
    });
    server.stderr.on('data', (d) => {
      output += String(d);
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    try {
      await expect.poll(() => output, { timeout: 60_000 }).toContain('running at');
      const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
      let done = false;
      void exited.then(() => {
        done = true;
      });
      const outcomes: Outcome[] = [];
      const loops = Array.from({ length: CONNECTIONS }, async () => {
        while (!done) {
          const o = await get(agent, port, '/healthz');
          outcomes.push(o);
          if (o.status !== 200) return;
        }
      });
      await new Promise((r) => setTimeout(r, 1500));
      const signalledAt = Date.now();
      server.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      await Promise.all(loops);
      const before = outcomes.filter((o) => o.sentAt < signalledAt);
      console.log(
        `[${target.dialect}] SIGTERM under load: ${before.length} requests sent before the signal, ${before.filter((o) => o.status === 200).length} answered 200; ${outcomes.length - before.length} after it`,
      );
      expect(before.length).toBeGreaterThan(CONNECTIONS);
      expect(before.filter((o) => o.status !== 200)).toEqual([]);
    } finally {
      agent.destroy();
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      if (schema) {
        const admin = new pg.Client({ connectionString: target.url });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    }
  }, 120_000);
});
