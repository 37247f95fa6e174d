import { loadConfig } from '../config/config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';

/** `npm run migrate`: bring the database at DATABASE_URL up to date (the server also does this at start-up). */
const config = loadConfig();
const database = openDatabase({ url: config.databaseUrl, pgSchema: config.databaseSchema });
migrateToLatest(database.db, config.databaseSchema)
  .then(async (ran) => {
    console.log(ran.length > 0 ? `Applied: ${ran.join(', ')}` : 'The database schema is up to date.');
    await database.close();
  })
  .catch(async (error: unknown) => {
    console.error('Migration failed:', error instanceof Error ? error.message : error);
    await database.close();
    process.exit(1);
  });
