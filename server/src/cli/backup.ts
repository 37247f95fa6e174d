import { ConfigError, loadConfig } from '../config/config.js';
import { backupDatabase } from '../reliability/backup.js';

/**
 * `npm run backup -- <file>`: a consistent backup of the database at DATABASE_URL (and DATABASE_SCHEMA), taken while
 * the server runs. SQLite: a copy made with SQLite's online backup API. PostgreSQL: a pg_dump custom-format archive
 * of the portal's schema. `npm run restore -- <file>` puts it back.
 */
async function main(argv: string[]): Promise<number> {
  const files = argv.filter((a) => !a.startsWith('-'));
  if (files.length !== 1 || argv.length !== 1) {
    console.error('Usage: npm run backup -- <file>');
    return 1;
  }
  const config = loadConfig();
  const started = Date.now();
  const result = await backupDatabase({ url: config.databaseUrl, schema: config.databaseSchema }, files[0]);
  const what =
    result.format === 'sqlite' ? 'SQLite database file' : 'pg_dump custom-format archive, read it with pg_restore';
  const rows = result.rows === null ? '' : `, ${result.rows} rows`;
  console.log(`Backup written to ${files[0]} (${what}): ${result.tables} tables${rows}, ${Date.now() - started} ms.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof Error ? `Backup failed: ${error.message}` : error);
    process.exit(1);
  },
);
