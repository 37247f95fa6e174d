import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from './app.js';
import type { Config } from './config/config.js';
import type { AppContext } from './context.js';
import { migrateToLatest, openDatabase, type Database } from './db/database.js';
import { loadFileLinkSecret } from './files/signing.js';
import { systemClock, type Clock } from './lib/time.js';
import { ensureOAuthClients } from './oauth/clients.js';
import { PDF_THREADS, PdfThreads } from './render/pdf-threads.js';

export interface Portal {
  app: FastifyInstance;
  ctx: AppContext;
  database: Database;
  close(): Promise<void>;
}

/**
 * Opens the database, brings its schema up to date, makes sure the web app's OAuth client exists, and builds the
 * app. Everything a replica needs comes from the database, so any number of them can start side by side.
 */
export async function startPortal(config: Config, options: BuildOptions & { clock?: Clock } = {}): Promise<Portal> {
  const database = openDatabase({
    url: config.databaseUrl,
    pgSchema: config.databaseSchema,
    statementTimeoutMs: config.queryTimeBudgetMs,
    costlyReadsAtOnce: config.costlyReadsAtOnce,
    mechanisms: config.mechanisms,
  });
  await migrateSchema(config, database);
  // The reader threads open the file once the schema is there, before the first costly read needs one.
  await database.startReaders?.();
  const clock = options.clock ?? systemClock;
  await ensureOAuthClients(database.db, clock);
  const ctx: AppContext = {
    config,
    db: database.db,
    costlyReads: database.costlyReads,
    writerBusy: database.writerBusy,
    pdfThreads: config.mechanisms['pdf-threads'] ? new PdfThreads(PDF_THREADS) : undefined,
    dialect: database.dialect,
    clock,
    fileLinkSecret: await loadFileLinkSecret(database.db, config.fileLinkSecret),
  };
  ctx.pdfThreads?.warmUp();
  const app = await buildApp(ctx, options);
  return {
    app,
    ctx,
    database,
    async close() {
      await app.close();
      await ctx.pdfThreads?.close();
      await database.close();
    },
  };
}

/**
 * Migrations run without the serving connections' statement timeout (a migration over a large table may take
 * longer): on PostgreSQL through a connection of their own; on SQLite, which has no timeout, on the same one.
 */
async function migrateSchema(config: Config, database: Database): Promise<void> {
  if (database.dialect === 'sqlite') {
    await migrateToLatest(database.db, config.databaseSchema);
    return;
  }
  const migrating = openDatabase({ url: config.databaseUrl, pgSchema: config.databaseSchema, poolSize: 1 });
  try {
    await migrateToLatest(migrating.db, config.databaseSchema);
  } finally {
    await migrating.close();
  }
}
