import { createQueryId, PostgresQueryCompiler, sql, SqliteQueryCompiler } from 'kysely';
import type { Viewer } from '../context.js';
import type { Dialect } from '../db/database.js';
import type { AccessRules, Predicate, ResourceDef } from './resource.js';

/**
 * Access rules built once per kind of reader, not at every request.
 *
 * A rule is the same SQL for every reader of one kind (staff; a handler user; a user without a company): only the
 * reader's ids differ, and they are values. Building a rule with Kysely's `sql` templates and compiling it again at
 * every request was a large share of a read (the files' rule has an EXISTS for each of ten owner types: building and
 * compiling it was 15 % of the current season's packages, docs/PERFORMANCE.md). So a rule is built once with
 * stand-ins for the reader's ids, compiled to text and values, and kept; each request gets that text with its own
 * ids put in place of the stand-ins. The SQL is the same as building the rule anew, character for character
 * (rule-cache.test.ts), so statement caches and PostgreSQL's named statements see the same texts.
 *
 * The rules may branch on the reader's role and on whether it has a company (resources/access.ts), never on its ids'
 * values: that is what the key holds. What is kept is bounded (least recently used dropped), and holds no reader's
 * data, so a second server process needs none of it.
 */
const USER_ID = '\u0000reader.userId';
const HANDLER_ID = '\u0000reader.handlerId';
const MAX_RULES = 4096;

interface FlatRule { fragments: readonly string[]; values: readonly unknown[] }

const compilers = { sqlite: new SqliteQueryCompiler(), postgres: new PostgresQueryCompiler() };
const rules = new Map<string, FlatRule | null>();

/** `access.read` or `access.full` of `def` for this reader over the row aliased `alias`. */
export function accessRule(kind: keyof AccessRules, def: ResourceDef, alias: string, viewer: Viewer, dialect: Dialect): Predicate {
  const build = def.access[kind]!;
  const key = `${dialect}|${kind}|${def.type}|${alias}|${viewer.role}|${viewer.handlerId ? 'company' : 'none'}`;
  let flat = rules.get(key);
  if (flat === undefined) {
    const standIn: Viewer = { ...viewer, userId: USER_ID, handlerId: viewer.handlerId ? HANDLER_ID : null };
    flat = flatten(build(standIn, alias), dialect);
    if (rules.size >= MAX_RULES) rules.delete(rules.keys().next().value!);
  } else {
    rules.delete(key); // re-inserted below: the Map's order is the order of last use
  }
  rules.set(key, flat);
  if (!flat) return build(viewer, alias);
  const values = flat.values.map((v) => (v === USER_ID ? viewer.userId : v === HANDLER_ID ? viewer.handlerId : v));
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
