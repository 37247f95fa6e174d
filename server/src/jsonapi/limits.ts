import { ApiError, badParameter } from '../lib/errors.js';
import type { Condition, FilterTree, Query } from './query-params.js';

/**
 * How large one read may be. Every read the web app sends stays far below these (its largest: the directory's
 * search, 7 conditions; 2 relationship hops in a path; 4 includes, 2 deep), and a request beyond one answers a 400
 * naming the limit before any SQL is built. They bound what a request can cost: the SQL text (every hop over a
 * relationship is an EXISTS carrying the target type's read rule), the time the database spends on it, and what the
 * statement and shape caches keep of it. The two that drive the cost most, conditions and hops, are kept close to
 * what the app needs: on the demo data, 20 CONTAINS conditions over three hops took 58 ms to build and run the first
 * time and 17 ms after, 10 over two hops 12 and 3 ms. Costly reads run apart, under a time budget
 * (jsonapi/read-cost.ts, decision 0009). docs/SECURITY.md lists them.
 */
export const LIMITS = {
  /** Bytes of the address (path and query string); beyond: 414. */
  urlBytes: 32 * 1024,
  /** Conditions in `filter`, all groups together. */
  filterConditions: 12,
  /** Groups in `filter` (the root group not counted). */
  filterGroups: 10,
  /** Values of all filter conditions together (an IN list counts each value). */
  filterValues: 500,
  /** Characters of one filter value. */
  filterValueLength: 1000,
  /** Relationships one filter or sort path goes through (`field_reporting_period.field_season.title`: 2). */
  pathHops: 2,
  /** Fields in `sort`. */
  sortFields: 5,
  /** Paths in `include`. */
  includes: 10,
  /** Relationships one include path goes through (`field_form_1.field_form_1_pdf`: 2). */
  includeDepth: 3,
  /** Characters of the SQL of one statement a read builds: a last bound, whatever the parts add up to. */
  sqlLength: 64 * 1024,
} as const;

const over = (parameter: string, what: string, limit: number) =>
  badParameter(parameter, `The request has too many ${what}: at most ${limit} are allowed.`);

/** The size limits a parsed query must keep; a 400 naming the first one it breaks. */
export function checkQuerySize(query: Query): void {
  const conditions: Condition[] = [];
  const groups = countGroups(query.filter, conditions);
  if (conditions.length > LIMITS.filterConditions) throw over('filter', 'filter conditions', LIMITS.filterConditions);
  if (groups > LIMITS.filterGroups) throw over('filter', 'filter groups', LIMITS.filterGroups);
  if (conditions.reduce((n, c) => n + c.values.length, 0) > LIMITS.filterValues)
    throw over('filter', 'filter values', LIMITS.filterValues);
  for (const c of conditions) {
    const parameter = `filter[${c.key}]`;
    checkPathHops(c.path, parameter);
    if (c.values.some((v) => v.length > LIMITS.filterValueLength)) {
      throw badParameter(
        parameter,
        `A filter value is too long: at most ${LIMITS.filterValueLength} characters are allowed.`,
      );
    }
  }
  if (query.sort.length > LIMITS.sortFields) throw over('sort', 'sort fields', LIMITS.sortFields);
  for (const field of query.sort) checkPathHops(field.path, 'sort');
  if (query.include.length > LIMITS.includes) throw over('include', 'include paths', LIMITS.includes);
  for (const path of query.include) {
    if (path.split('.').length > LIMITS.includeDepth) {
      throw badParameter(
        'include',
        `The include "${path}" is too deep: at most ${LIMITS.includeDepth} relationships are allowed.`,
      );
    }
  }
}

/** The groups below `tree` (itself not counted); its conditions, at any depth, put into `conditions`. */
function countGroups(tree: FilterTree, conditions: Condition[]): number {
  let groups = 0;
  for (const member of tree.members) {
    if ('members' in member) groups += 1 + countGroups(member, conditions);
    else conditions.push(member);
  }
  return groups;
}

/** A path's relationship hops, counted before it is resolved: every segment but the last may be one. */
function checkPathHops(path: string, parameter: string): void {
  const segments = path.split('.').filter((s) => s !== 'entity' && s !== 'id');
  if (segments.length - 1 > LIMITS.pathHops) {
    throw badParameter(
      parameter,
      `The path "${path}" is too long: at most ${LIMITS.pathHops} relationships are allowed.`,
    );
  }
}

/** A statement's SQL beyond LIMITS.sqlLength: a 400 instead of a statement kept in every cache. */
export function checkSqlLength(sqlText: string): void {
  if (sqlText.length > LIMITS.sqlLength) {
    throw new ApiError(
      400,
      `The request is too complex: its query would be over ${LIMITS.sqlLength} characters of SQL. Use fewer conditions or shorter paths.`,
    );
  }
}

/** An address beyond LIMITS.urlBytes: 414, as a JSON:API error document. */
export function checkUrlLength(url: string): void {
  if (Buffer.byteLength(url) > LIMITS.urlBytes) {
    throw new ApiError(414, `The address is too long: at most ${LIMITS.urlBytes} bytes are allowed.`);
  }
}

/**
 * `record[name]` only when `name` is the record's own: a field name from a request may be `constructor`,
 * `toString` or `__proto__`, which a plain lookup finds on Object.prototype.
 */
export function own<T>(record: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}
