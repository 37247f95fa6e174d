import { ConfigError, loadConfig } from '../config/config.js';
import { restoreDatabase } from '../reliability/backup.js';

/**
 * `npm run restore -- <file> [--force]`: restores a backup written by `npm run backup` into the database at
 * DATABASE_URL (and DATABASE_SCHEMA). Stop the servers first. It refuses a database that holds data unless --force,
 * which replaces that data. The restored database is checked (integrity, foreign keys) before this reports success.
 */
async function main(argv: string[]): Promise<number> {
  const force = argv.includes('--force');
  const rest = argv.filter((a) => a !== '--force');
  if (rest.length !== 1 || rest[0].startsWith('-')) {
    console.error('Usage: npm run restore -- <file> [--force]');
    return 1;
  }
  const config = loadConfig();
  const started = Date.now();
  const result = await restoreDatabase({ url: config.databaseUrl, schema: config.databaseSchema }, rest[0], { force });
  console.log(
    `Restored ${rest[0]} (${result.format === 'sqlite' ? 'SQLite database file' : 'pg_dump archive'}): ${result.rows} rows, ${Date.now() - started} ms.`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? `Restore failed: ${error.message}` : error);
    process.exit(1);
  },
);
