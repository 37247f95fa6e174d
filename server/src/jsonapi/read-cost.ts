import type { Condition, FilterTree, Query } from './query-params.js';

/**
 * What a read may cost the database, estimated from its query before any SQL is built, and whether it is costly
 * enough to run on SQLite's reader threads (db/sqlite-readers/, decision 0009) instead of the server's connection,
 * which runs every statement on the event loop. The estimate counts what makes a statement work per row rather than
 * look up by index: every filter condition (more through every relationship hop, each an EXISTS carrying the target's
 * read rule), twice for a text match (CONTAINS, STARTS_WITH, ENDS_WITH: the fold function on every row, never an
 * index), and every sort through a relationship (a scalar subquery per row). Includes are not counted: they read by
 * id, a fixed number of statements (read.ts), within the limits of jsonapi/limits.ts.
 *
 * The web app's reads cost 0 to 8 and stay on the connection, with its fast paths (read-cost.test.ts checks each),
 * but for the directory's search (13: six CONTAINS over every handler); issue 32's attack within the limits costs 120.
 */
export const COSTLY_READ = 10;

const TEXT_MATCHES = new Set(['CONTAINS', 'STARTS_WITH', 'ENDS_WITH']);

/** Relationship hops a path goes through, counted as limits.ts counts them (every segment but the last may be one). */
const hops = (path: string) => path.split('.').filter((s) => s !== 'entity' && s !== 'id').length - 1;

function conditionCost(c: Condition): number {
  return (1 + 2 * Math.max(0, hops(c.path))) * (TEXT_MATCHES.has(c.operator) ? 2 : 1);
}

function filterCost(tree: FilterTree): number {
  return tree.members.reduce((n, m) => n + ('members' in m ? filterCost(m) : conditionCost(m)), 0);
}

export function readCost(query: Query): number {
  return filterCost(query.filter) + query.sort.reduce((n, s) => n + 2 * Math.max(0, hops(s.path)), 0);
}

export const isCostly = (query: Query) => readCost(query) >= COSTLY_READ;
