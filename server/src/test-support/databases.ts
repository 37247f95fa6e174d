import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe } from 'vitest';
import { loadConfig, type Config } from '../config/config.js';
import { migrateToLatest, openDatabase, type Dialect } from '../db/database.js';
import type { AppContext } from '../context.js';
import { systemClock, type Clock } from '../lib/time.js';
import { loadFileLinkSecret } from '../files/signing.js';
import { PDF_THREADS, PdfThreads } from '../render/pdf-threads.js';

/**
 * Every server test runs on both databases: SQLite in memory, and PostgreSQL at TEST_DATABASE_URL in a schema of
 * its own (so test files can run side by side). `npm test` sets TEST_DATABASE_URL; without it the PostgreSQL runs
 * fail loudly rather than vanish, unless PORTAL_TEST_SQLITE_ONLY=1 says so on purpose.
 */
export interface TestDatabase {
  dialect: Dialect;
  url: string;
}

export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ dialect: 'sqlite', url: 'sqlite::memory:' }];
  if (process.env.PORTAL_TEST_SQLITE_ONLY === '1') return list;
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test`, or set PORTAL_TEST_SQLITE_ONLY=1');
  list.push({ dialect: 'postgres', url });
  return list;
}

export interface TestContext extends AppContext {
  close(): Promise<void>;
  serialize?(): Buffer;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PORTAL_DEMO_DATA: '0' }), ...overrides };
}

/** A fresh, migrated, empty database. On PostgreSQL a new schema, dropped again by close(). */
export async function createTestContext(
  target: TestDatabase,
  options: { clock?: Clock; config?: Partial<Config>; sqliteImage?: Buffer } = {},
): Promise<TestContext> {
  let schema: string | undefined;
  if (target.dialect === 'postgres') {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
  }
  const database = openDatabase({
    url: target.url,
    pgSchema: schema,
    poolSize: 4,
    sqliteImage: target.dialect === 'sqlite' ? options.sqliteImage : undefined,
    mechanisms: options.config?.mechanisms,
  });
  await migrateToLatest(database.db, schema);
  const config = testConfig({ databaseUrl: target.url, ...options.config });
  const pdfThreads = config.mechanisms['pdf-threads'] ? new PdfThreads(PDF_THREADS) : undefined;
  return {
    serialize: database.serialize,
    config,
    db: database.db,
    dialect: database.dialect,
    clock: options.clock ?? systemClock,
    fileLinkSecret: await loadFileLinkSecret(database.db),
    pdfThreads,
    async close() {
      await pdfThreads?.close();
      await database.close();
      if (schema) {
        const admin = new pg.Client({ connectionString: target.url });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  };
}

/** `describe` once per database, named after it. */
export function describeEachDatabase(name: string, body: (target: TestDatabase) => void): void {
  for (const target of testDatabases()) {
    describe(`${name} [${target.dialect}]`, () => body(target));
  }
}

/** A clock the test moves by hand. */
export function fixedClock(iso: string): Clock & { set(iso: string): void; advance(seconds: number): void } {
  let now = new Date(iso);
  return {
    now: () => new Date(now),
    set: (next: string) => {
      now = new Date(next);
    },
    advance: (seconds: number) => {
      now = new Date(now.getTime() + seconds * 1000);
    },
  };
}
