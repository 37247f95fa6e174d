/**
 * The one seam for the server's performance mechanisms (decision 0007, "The seam"). Each is on by default;
 * `PORTAL_MECHANISMS_OFF=document-cache,shape-cache` turns the named ones off, so that `npm run bench:ablation` can
 * measure what each buys against the plain path it replaces. Read once at start by config; each mechanism gets its
 * boolean where it is built (database options, the compiler, the document cache), never from the environment in a
 * request's path.
 */
export const SERVER_MECHANISMS = {
  /** Kept JSON:API documents (jsonapi/document-cache.ts); off: every document built anew. */
  'document-cache': 'kept JSON:API documents',
  /** Access rules and statements compiled once per shape (jsonapi/shape-cache.ts); off: SQL built at each request. */
  'shape-cache': 'SQL compiled once per shape',
  /** SQLite rows made by a function written per statement (db/sqlite-connection.ts); off: better-sqlite3's objects. */
  'row-builders': 'row objects made by `new Function`',
  /** PostgreSQL statements sent named, prepared once per connection (db/database.ts); off: unnamed, as Kysely sends. */
  'pg-named': 'PostgreSQL named statements',
  /**
   * The submissions board's stale year-to-date check kept at each form 1 certification (form1_stale_year_to_date,
   * workflows/stale-year-to-date.ts); off: the board runs the check for every handler at every poll. Certification
   * keeps the table either way, so that turning it on again finds it right.
   */
  'stale-kept': 'the stale year-to-date check kept per certified form 1',
  /** PDFs rendered on worker threads (render/pdf-threads.ts); off: on the event loop. */
  'pdf-threads': 'PDFs rendered on worker threads',
  /**
   * SQLite on a file: a JSON:API read that comes while a write transaction holds the server's connection runs on the
   * reader threads (jsonapi/routes.ts); off: it waits for the transaction's end.
   */
  'reads-beside-writes': 'reads on the reader threads during a write transaction',
} as const;

export type ServerMechanism = keyof typeof SERVER_MECHANISMS;
/** Which mechanisms are on. */
export type Mechanisms = Readonly<Record<ServerMechanism, boolean>>;

export const MECHANISM_NAMES = Object.keys(SERVER_MECHANISMS) as ServerMechanism[];
export const ALL_MECHANISMS_ON: Mechanisms = Object.freeze(
  Object.fromEntries(MECHANISM_NAMES.map((name) => [name, true])) as Record<ServerMechanism, boolean>,
);

const isMechanism = (name: string): name is ServerMechanism => Object.hasOwn(SERVER_MECHANISMS, name);

/**
 * The mechanisms on, given the comma-separated names of those to turn off (empty or unset: all on). An unknown name
 * throws, naming it and the known ones, so that a misspelt switch never measures the wrong build.
 */
export function mechanismsOff(list: string | undefined): Mechanisms {
  const names = (list ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isMechanism(name));
  if (unknown.length > 0) {
    throw new Error(`unknown mechanism ${unknown.join(', ')}; known: ${MECHANISM_NAMES.join(', ')}`);
  }
  return Object.freeze(
    Object.fromEntries(MECHANISM_NAMES.map((name) => [name, !names.includes(name)])) as Record<
      ServerMechanism,
      boolean
    >,
  );
}
