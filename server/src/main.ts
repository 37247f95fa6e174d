import cluster from 'node:cluster';
import { ConfigError, loadConfig } from './config/config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { loadDemoDataIfEmpty, type DemoCredentials } from './demo/load.js';
import { drain } from './ops/drain.js';
import { missingWebFiles } from './ops/web-build.js';
import { defaultWebDist } from './plugins/web.js';
import { startPortal } from './server.js';
import { startReminderJob } from './reminders/job.js';

/**
 * `npm start`: serve the portal. With demo data (a fresh embedded database, outside production) the first start
 * loads the demo data set and prints the demo credentials. SIGTERM and SIGINT finish in-flight requests, then
 * close the database.
 *
 * `WEB_CONCURRENCY=n` (n > 1) runs n worker processes sharing the port (node:cluster). That is safe because a
 * server keeps nothing in memory another one needs (tokens, throttling, file-link secret and files live in the
 * database). The primary brings the schema up to date and loads demo data once, then forks the workers; it
 * restarts a worker that dies and passes SIGTERM/SIGINT on to all of them.
 */
const printDemo = (demo: DemoCredentials) =>
  console.log(
    `\nDemo sign-in (password "${demo.password}" for all): ${demo.users.map((u) => `${u.username} (${u.description}${u.totpSecret ? `; authenticator key ${u.totpSecret}` : ''})`).join(', ')}`,
  );

/**
 * A server without its web app would answer 404 to every page: stop with one line instead. `WEB_DIST=none`
 * serves the API alone on purpose (the tests that start the built server do).
 */
function requireWebApp(dist: string): void {
  if (dist === 'none') return;
  const missing = missingWebFiles(dist);
  if (missing.length === 0) return;
  console.error(
    `The web app is not built (${dist} lacks ${missing.slice(0, 3).join(', ')}): run npm run build, or npm start, which builds it.`,
  );
  process.exit(1);
}

async function serve(loadDemo: boolean): Promise<void> {
  const config = loadConfig();
  const portal = await startPortal(config);
  const { app, ctx } = portal;
  if (loadDemo && config.demoData) {
    const demo = await loadDemoDataIfEmpty(ctx, app.log);
    if (demo) {
      app.log.info('Demo data loaded.');
      printDemo(demo);
    }
  }
  const address = await app.listen({ port: config.port, host: config.host });
  // Every process runs the reminder job; the claims in reminders_sent make each reminder go out once.
  const reminders = startReminderJob(ctx, app.log, {
    intervalSeconds: config.reminderIntervalSeconds,
    daysBefore: config.reminderDaysBefore,
    retryMinutes: config.reminderRetryMinutes,
    maxAttempts: config.reminderMaxAttempts,
  });
  if (cluster.isPrimary)
    console.log(
      `\nHandler Portal is running at ${address.replace('127.0.0.1', 'localhost')} (database: ${ctx.dialect})\n`,
    );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Answer every request already sent on an open connection before closing (see ops/drain.ts).
    await drain(app);
    await reminders?.stop();
    await portal.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The primary of a cluster: schema and demo data once, then n workers that only serve. */
async function primary(workers: number): Promise<void> {
  const config = loadConfig();
  const database = openDatabase({ url: config.databaseUrl, pgSchema: config.databaseSchema });
  try {
    await migrateToLatest(database.db, config.databaseSchema);
  } finally {
    await database.close();
  }
  if (config.demoData) {
    // Demo data needs the whole portal context: a short-lived portal (not listening) loads it.
    const portal = await startPortal(config);
    const demo = await loadDemoDataIfEmpty(portal.ctx, portal.app.log);
    await portal.close();
    if (demo) printDemo(demo);
  }
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (listening === 0) {
      // A worker that dies before any worker listens (port taken, bad configuration) would die again: give up.
      console.error(`Worker ${worker.process.pid} could not start (${signal ?? code}); stopping.`);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      process.exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    console.error(`Worker ${worker.process.pid} stopped (${signal ?? code}); starting another.`);
    setTimeout(fork, 1000);
  });
  cluster.on('listening', () => {
    listening += 1;
    if (listening === workers)
      console.log(`\nHandler Portal is running at http://localhost:${config.port} with ${workers} workers\n`);
  });
  for (let i = 0; i < workers; i += 1) fork();
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main(): Promise<void> {
  const config = loadConfig();
  requireWebApp(config.webDist ?? defaultWebDist);
  const workers = config.webConcurrency;
  if (workers > 1 && cluster.isPrimary) return primary(workers);
  return serve(cluster.isPrimary);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The portal could not start:', error);
  }
  process.exit(1);
});
