// Apart from database.ts, so that what database.ts itself imports (jsonapi/fold.ts) can name it without a cycle.
/** The two databases the server runs on. */
export type Dialect = 'sqlite' | 'postgres';
