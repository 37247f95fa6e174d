import { ConfigError, loadConfig } from './config/config.js';
import { loadDemoDataIfEmpty } from './demo/load.js';
import { startPortal } from './server.js';

/**
 * `npm start`: serve the portal. With demo data (a fresh embedded database, outside production) the first start
 * loads the demo data set and prints the demo credentials. SIGTERM and SIGINT finish in-flight requests, then
 * close the database.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const portal = await startPortal(config);
  const { app, ctx } = portal;
  if (config.demoData) {
    const demo = await loadDemoDataIfEmpty(ctx, app.log);
    if (demo) {
      app.log.info('Demo data loaded.');
      console.log(`\nDemo sign-in (password "${demo.password}" for all): ${demo.users.map((u) => `${u.username} (${u.description})`).join(', ')}`);
    }
  }
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(`\nHandler Portal is running at ${address.replace('127.0.0.1', 'localhost')} (database: ${ctx.dialect})\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await portal.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('The portal could not start:', error);
  }
  process.exit(1);
});
