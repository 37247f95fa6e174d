import { CompiledQuery, createQueryId, PostgresQueryCompiler, sql, SqliteQueryCompiler, type RawBuilder } from 'kysely';
import type { Viewer } from '../context.js';
import type { Dialect } from '../db/database.js';
import { bytesBoundedCache, stringBytes } from '../lib/lru.js';
import { checkSqlLength } from './limits.js';
import type { AccessRules, Predicate, ResourceDef } from './resource.js';

/**
 * SQL built once per shape, not at every request.
 *
 * An access rule is the same SQL for every reader of one kind (staff; a handler user; a user without a company):
 * only the reader's ids differ, and they are values. So are the ids an include or a to-many linkage looks up. Building
 * such SQL with Kysely's `sql` templates and compiling it at every request was a large share of a read (the files'
 * rule has an EXISTS for each of ten owner types: building and compiling it was 15 % of the current season's packages,
 * decision 0007). So it is built once with stand-ins for the values, compiled, and kept; each request gets the
 * kept text with its own values put in place of the stand-ins. The SQL is the same as building it anew, character
 * for character (shape-cache.test.ts). A whole statement kept so is run with the very same string each time, so the
 * statement caches (SQLite's by text, PostgreSQL's named statements) find it without hashing a new string.
 *
 * The rules may branch on the reader's role and on whether it has a company (resources/access.ts), never on its ids'
 * values: that is what the keys hold. What is kept is bounded in bytes (least recently used dropped) and holds no
 * reader's data, so a second server process needs none of it.
 */
const USER_ID = '\u0000reader.userId';
const HANDLER_ID = '\u0000reader.handlerId';
const VALUE = '\u0000value:';
/**
 * What the kept SQL may take, in bytes as V8 stores it at most: bounded by bytes, not by count, so that requests
 * building long statements cannot make it hold more (issue 32: 4,096 shapes of 140 KB each).
 */
export const RULE_CACHE_BYTES = 4 * 1024 * 1024;
export const SHAPE_CACHE_BYTES = 32 * 1024 * 1024;
/** A value's bytes beside the text: parameters are short strings and numbers, and a stand-in is one. */
const PARAMETER_BYTES = 16;
const ENTRY_BYTES = 64;

const compilers = { sqlite: new SqliteQueryCompiler(), postgres: new PostgresQueryCompiler() };

/** The reader as the kept SQL sees it: its kind is real, its ids are stand-ins. */
function standIn(viewer: Viewer): Viewer {
  return { ...viewer, userId: USER_ID, handlerId: viewer.handlerId ? HANDLER_ID : null };
}

const readerKind = (viewer: Viewer) => `${viewer.role}|${viewer.handlerId ? 'company' : 'none'}`;

/** What a request puts in place of a stand-in (the reader's own ids, or the i-th of its values); others are kept. */
function resolve(parameter: unknown, viewer: Viewer, values: readonly unknown[]): unknown {
  if (typeof parameter !== 'string' || parameter.charCodeAt(0) !== 0) return parameter;
  if (parameter === USER_ID) return viewer.userId;
  if (parameter === HANDLER_ID) return viewer.handlerId;
  if (parameter.startsWith(VALUE)) return values[Number(parameter.slice(VALUE.length))];
  return parameter;
}

// ---------------------------------------------------------------- access rules

interface FlatRule {
  fragments: readonly string[];
  values: readonly unknown[];
}
/** A rule that cannot be kept as text (flatten's null), remembered so it is not tried again. */
const BUILD_EACH_TIME = 'build each time';
const rules = bytesBoundedCache<FlatRule | typeof BUILD_EACH_TIME>(
  RULE_CACHE_BYTES,
  (key, flat) =>
    ENTRY_BYTES +
    stringBytes(key) +
    (typeof flat === 'object'
      ? flat.fragments.reduce((n, f) => n + stringBytes(f), 0) + flat.values.length * PARAMETER_BYTES
      : 0),
);

/** `access.read` or `access.full` of `def` for this reader over the row aliased `alias`. */
export function accessRule(
  kind: keyof AccessRules,
  def: ResourceDef,
  alias: string,
  viewer: Viewer,
  dialect: Dialect,
  keep = true,
): Predicate {
  const build = def.access[kind]!;
  if (!keep) return build(viewer, alias);
  const key = `${dialect}|${kind}|${def.type}|${alias}|${readerKind(viewer)}`;
  let flat = rules.get(key);
  if (flat === undefined) rules.set(key, (flat = flatten(build(standIn(viewer), alias), dialect) ?? BUILD_EACH_TIME));
  if (flat === BUILD_EACH_TIME) return build(viewer, alias);
  const values = flat.values.map((v) => resolve(v, viewer, []));
  return sql(flat.fragments as unknown as TemplateStringsArray, ...values);
}

/**
 * The rule as its SQL text cut at each placeholder, and its values. Null (build it at every request, as before) if
 * the placeholders cannot be told apart from the text with certainty.
 */
function flatten(rule: Predicate, dialect: Dialect): FlatRule | null {
  const compiled = compilers[dialect].compileQuery(rule.toOperationNode(), createQueryId());
  const placeholder = dialect === 'postgres' ? /\$(\d+)/g : /\?/g;
  const fragments: string[] = [];
  let from = 0;
  for (const match of compiled.sql.matchAll(placeholder)) {
    if (dialect === 'postgres' && match[1] !== String(fragments.length + 1)) return null;
    fragments.push(compiled.sql.slice(from, match.index));
    from = match.index + match[0].length;
  }
  fragments.push(compiled.sql.slice(from));
  return fragments.length === compiled.parameters.length + 1 ? { fragments, values: compiled.parameters } : null;
}

// ---------------------------------------------------------------- whole statements

interface Shape {
  sql: string;
  parameters: readonly unknown[];
}
const shapes = bytesBoundedCache<Shape>(
  SHAPE_CACHE_BYTES,
  (key, shape) => ENTRY_BYTES + stringBytes(key) + stringBytes(shape.sql) + shape.parameters.length * PARAMETER_BYTES,
);

/** Bytes the kept SQL takes (tests). */
export const keptBytes = () => ({ rules: rules.calculatedSize, shapes: shapes.calculatedSize });

/**
 * A whole statement, compiled once per `key` and kind of reader. `build` gets the stand-in reader (build the
 * statement's rules for it, through a compiler of its own) and `slot(i)`, the stand-in for `values[i]`. The key must
 * name everything else the statement's text depends on (type, alias, columns, how many values).
 */
export function compiledOnce(
  dialect: Dialect,
  keep: boolean,
  key: string,
  viewer: Viewer,
  values: readonly unknown[],
  build: (reader: Viewer, slot: (i: number) => string) => RawBuilder<unknown>,
): CompiledQuery {
  const fullKey = `${dialect}|${readerKind(viewer)}|${key}`;
  // With the `shape-cache` mechanism off (performance/mechanisms.ts), compiled at every request and not kept.
  let shape = keep ? shapes.get(fullKey) : undefined;
  if (!shape) {
    const compiled = compilers[dialect].compileQuery(
      build(standIn(viewer), (i) => `${VALUE}${i}`).toOperationNode(),
      createQueryId(),
    );
    checkSqlLength(compiled.sql);
    shape = { sql: compiled.sql, parameters: compiled.parameters };
    if (keep) shapes.set(fullKey, shape);
  }
  return CompiledQuery.raw(
    shape.sql,
    shape.parameters.map((p) => resolve(p, viewer, values)),
  );
}
