import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.js';
import type { Viewer } from '../context.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { loadFileLinkSecret } from '../files/signing.js';
import { systemClock } from '../lib/time.js';
import { ApiError } from '../lib/errors.js';
import { createHandler, createUser, listUsers, resetSecondFactor, setPassword } from '../workflows/accounts.js';
import type { Actor } from '../workflows/common.js';

/**
 * The operators' command line: `npm run portal -- <command> [options]`, against DATABASE_URL like the server.
 * Every command goes through the same workflows as the API, as council staff.
 */
const USAGE = `Usage: npm run portal -- <command> [options]

  migrate                                   bring the database schema up to date
  create-handler --number N --name NAME [--directory]
  create-user --username U --password P --first-name F [--last-name L] [--mail M]
              (--handler NUMBER | --staff) [--directory]
  set-password --username U --password P  (ends the user's sessions)
  reset-mfa --username U                    remove the user's authenticator and recovery codes, end their
                                            sessions; staff set up a new one at their next sign-in
  list-users`;

const OPERATOR: Viewer = { userId: 'cli', name: 'operator', role: 'staff', handlerId: null };

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    allowPositionals: false,
    strict: true,
    options: {
      number: { type: 'string' },
      name: { type: 'string' },
      directory: { type: 'boolean' },
      username: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      mail: { type: 'string' },
      handler: { type: 'string' },
      staff: { type: 'boolean' },
    },
  });
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig();
  const database = openDatabase({ url: config.databaseUrl, pgSchema: config.databaseSchema });
  try {
    await migrateToLatest(database.db, config.databaseSchema);
    const ctx = {
      config,
      db: database.db,
      dialect: database.dialect,
      clock: systemClock,
      fileLinkSecret: await loadFileLinkSecret(database.db, config.fileLinkSecret),
    };
    const need = (name: keyof typeof values): string => {
      const v = values[name];
      if (typeof v !== 'string' || v === '') throw new ApiError(400, `--${name} is required.`);
      return v;
    };
    const run = <T>(fn: (a: Actor) => Promise<T>) =>
      ctx.db.transaction().execute((trx) => fn({ ctx: { ...ctx, db: trx }, viewer: OPERATOR }));
    switch (command) {
      case 'migrate':
        console.log('The database schema is up to date.');
        return 0;
      case 'create-handler':
        await run((a) =>
          createHandler(a, { number: need('number'), name: need('name'), directory: values.directory ?? false }),
        );
        console.log(`Handler ${need('number')} created.`);
        return 0;
      case 'create-user':
        await run((a) =>
          createUser(a, {
            username: need('username'),
            password: need('password'),
            firstName: need('first-name'),
            lastName: values['last-name'],
            mail: values.mail,
            role: values.staff ? 'staff' : 'handler',
            handlerNumber: values.staff ? null : need('handler'),
            directory: values.directory,
          }),
        );
        console.log(`User ${need('username')} created.`);
        return 0;
      case 'set-password':
        await run((a) => setPassword(a, need('username'), need('password')));
        console.log(`Password of ${need('username')} changed; their sessions have ended.`);
        return 0;
      case 'reset-mfa':
        await run((a) => resetSecondFactor(a, need('username')));
        console.log(
          `The authenticator of ${need('username')} was removed; their sessions have ended. They set up a new one at their next sign-in.`,
        );
        return 0;
      case 'list-users':
        console.table(await run((a) => listUsers(a)));
        return 0;
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 1;
    }
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ApiError) console.error(error.errors.map((e) => e.detail).join('\n'));
    else if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
      console.error(`${error.message}\n\n${USAGE}`);
    else console.error(error);
    process.exit(1);
  },
);
