import { sql, type RawBuilder } from 'kysely';
import type { Viewer } from '../context.js';
import type { Dialect } from '../db/database.js';
import { badParameter } from '../lib/errors.js';
import { CodecError, fromQuery, type Codec } from './codecs.js';
import { fold, foldSql } from './fold.js';
import { resolvePath, type Hop, type ResolvedPath, type Terminal } from './paths.js';
import type { Condition, FilterTree, SortField } from './query-params.js';
import type { Registry } from './registry.js';
import { accessRule } from './shape-cache.js';
import type { Predicate, ResourceDef, Visibility } from './resource.js';

/**
 * Compiles Drupal filters and sorts to SQL over an aliased main row. Every hop over a relationship is an EXISTS
 * (or a scalar subquery, for sorts) that carries the target type's read rule, so a filter, a sort or an include can
 * never see a row the reader may not read, whatever path it takes.
 */
export class Compiler {
  private aliasCount = 0;

  constructor(
    readonly registry: Registry,
    readonly viewer: Viewer,
    readonly dialect: Dialect,
    /** The `shape-cache` mechanism (performance/mechanisms.ts): SQL kept per shape, or built at each request. */
    readonly keepShapes = true,
  ) {}

  /**
   * The same compiler for another reader (the stand-in reader of a statement kept per shape). It counts aliases
   * afresh: use it for access rules over aliases taken from this one, not for filters that take aliases of their own.
   */
  as(viewer: Viewer): Compiler {
    return new Compiler(this.registry, viewer, this.dialect, this.keepShapes);
  }

  alias(): string {
    this.aliasCount += 1;
    return `r${this.aliasCount}`;
  }

  ref(alias: string, column: string): RawBuilder<unknown> {
    return sql.ref(`${alias}.${column}`);
  }

  /** The row is visible, and so are its restricted members when `full` is asked for. */
  readable(def: ResourceDef, alias: string, full = false): Predicate {
    const read = accessRule('read', def, alias, this.viewer, this.dialect, this.keepShapes);
    if (!full || !def.access.full) return read;
    return sql`(${read} and ${this.full(def, alias)})`;
  }

  /** The reader sees the row's restricted members (`access.full`), or null when the type has none. */
  full(def: ResourceDef, alias: string): Predicate | null {
    return def.access.full ? accessRule('full', def, alias, this.viewer, this.dialect, this.keepShapes) : null;
  }

  /**
   * The reader sees the row's card members (`access.card`, or `access.full`), or null when the type has no card rule.
   */
  card(def: ResourceDef, alias: string): Predicate | null {
    if (!def.access.card) return null;
    const card = accessRule('card', def, alias, this.viewer, this.dialect, this.keepShapes);
    const full = this.full(def, alias);
    return full ? sql`(${card} or ${full})` : card;
  }

  /** The condition under which a member of `visibility` shows (null: always, to whoever reads the row). */
  shows(def: ResourceDef, alias: string, visibility: Visibility): Predicate | null {
    if (visibility === 'public') return null;
    return visibility === 'card' ? this.card(def, alias) : this.full(def, alias);
  }

  filter(def: ResourceDef, alias: string, tree: FilterTree): Predicate {
    if (tree.members.length === 0) return sql`1 = 1`;
    const parts = tree.members.map((m) => ('kind' in m ? this.condition(def, alias, m) : this.filter(def, alias, m)));
    return sql`(${sql.join(parts, sql.raw(tree.conjunction === 'OR' ? ' or ' : ' and '))})`;
  }

  /**
   * The values the filters bind, in the order the statement takes them: each checked and converted by its field's
   * codec (a 400 naming the parameter when it does not fit), a text match's as its LIKE pattern. A statement kept
   * per shape (read.ts) gets them at every request in place of the stand-ins it was built with.
   */
  filterValues(def: ResourceDef, tree: FilterTree): unknown[] {
    return tree.members.flatMap((m) => ('kind' in m ? this.conditionValues(def, m) : this.filterValues(def, m)));
  }

  /**
   * This compiler (for the stand-in reader) building a statement kept per shape: filter value i is bound as `slot(i)`.
   */
  slotted(slot: (i: number) => string): Compiler {
    const copy = new Compiler(this.registry, this.viewer, this.dialect, this.keepShapes);
    let next = 0;
    copy.bind = () => slot(next++);
    return copy;
  }

  /** How a filter's value goes into the statement: itself, or the stand-in of its place (see `slotted`). */
  private bind: (value: unknown) => unknown = (value) => value;

  private conditionValues(def: ResourceDef, c: Condition): unknown[] {
    const parameter = `filter[${c.key}]`;
    const terminal = resolvePath(this.registry, def, c.path, parameter).terminal;
    return this.checkedValues(codecOf(terminal), c, parameter, folds(terminal, c));
  }

  /** The condition's values for the statement; folded already (fold.ts) when the column side is folded in SQL. */
  private checkedValues(codec: Codec, c: Condition, parameter: string, folded: boolean): unknown[] {
    if (codec === 'json') throw badParameter(parameter, `"${c.path}" is a list and cannot be filtered.`);
    const values = c.values.map((v) => this.value(codec, v, parameter));
    if (folded) return values.map((v) => fold(String(v)));
    if (!TEXT_MATCHES.has(c.operator)) return values;
    if (!TEXT_CODECS.has(codec))
      throw badParameter(parameter, `${c.operator} works on text fields only, not on "${c.path}".`);
    const escaped = String(values[0]).replace(/[\\%_]/g, (ch) => `\\${ch}`);
    return [c.operator === 'STARTS_WITH' ? `${escaped}%` : c.operator === 'ENDS_WITH' ? `%${escaped}` : `%${escaped}%`];
  }

  private condition(def: ResourceDef, alias: string, c: Condition): Predicate {
    const parameter = `filter[${c.key}]`;
    const path = resolvePath(this.registry, def, c.path, parameter);
    return this.through(path.hops, alias, (lastAlias) => this.compare(path.terminal, lastAlias, c, parameter));
  }

  /** Wraps `inner` in one EXISTS per hop, each with the target's read rule. */
  private through(hops: Hop[], alias: string, inner: (alias: string) => Predicate): Predicate {
    if (hops.length === 0) return inner(alias);
    const [hop, ...rest] = hops;
    const next = this.alias();
    const join =
      hop.rel.kind === 'one'
        ? sql`${this.ref(next, 'id')} = ${this.ref(alias, hop.rel.column)}`
        : sql`${this.ref(next, hop.rel.foreignColumn)} = ${this.ref(alias, 'id')}`;
    const shown = this.shows(hop.from, alias, hop.rel.visibility);
    const fromShown = shown ? sql` and ${shown}` : sql``;
    return sql`(exists (select 1 from ${sql.table(hop.to.table)} as ${sql.raw(next)} where ${join} and ${this.readable(hop.to, next)}${fromShown} and ${this.through(rest, next, inner)}))`;
  }

  private terminalColumn(
    t: Terminal,
    alias: string,
  ): { column: RawBuilder<unknown>; codec: Codec; guard: Predicate | null } {
    const codec = codecOf(t);
    if (t.kind === 'id') return { column: this.ref(alias, 'id'), codec, guard: null };
    if (t.kind === 'foreignKey') {
      const guard = this.shows(t.owner, alias, t.rel.visibility);
      return { column: this.ref(alias, t.rel.column), codec, guard };
    }
    const guard = this.shows(t.owner, alias, t.attribute.visibility);
    const column = t.attribute.derived
      ? t.attribute.derived.sql(alias, this.dialect)
      : this.ref(alias, t.attribute.column);
    return { column, codec, guard };
  }

  private value(codec: Codec, raw: string, parameter: string): unknown {
    try {
      return fromQuery(codec, raw, this.dialect);
    } catch (e) {
      if (e instanceof CodecError) throw badParameter(parameter, `The value "${raw}" ${e.message}.`);
      throw e;
    }
  }

  private compare(t: Terminal, alias: string, c: Condition, parameter: string): Predicate {
    const { column, codec, guard } = this.terminalColumn(t, alias);
    // One rule for text on both databases, Drupal's (MySQL's default collation; on PostgreSQL Drupal lowers both
    // sides): a text field compares case- and accent-insensitively with every operator, `=` as CONTAINS does: the
    // column folded in SQL, the values folded here (the same table, fold.ts; folding each value in SQL would write
    // the fold's table into the statement once per value of an IN list). Ids and dates compare as they are.
    const folded = folds(t, c);
    const values = this.checkedValues(codec, c, parameter, folded).map((v) => this.bind(v));
    const test = this.operator(folded ? foldSql(this.dialect, column) : column, c, values);
    return guard ? sql`(${guard} and ${test})` : test;
  }

  /**
   * STARTS_WITH, CONTAINS, ENDS_WITH (the value is already the LIKE pattern, wildcards escaped): case- and
   * accent-insensitive on both databases, as every comparison of a text field is (see `compare`) ("cote" finds "Côte",
   * as Drupal's do on MySQL's default collation). Both sides go through the same fold (fold.ts): a SQL function on
   * SQLite, lower() and translate() on PostgreSQL.
   */
  private operator(column: RawBuilder<unknown>, c: Condition, values: unknown[]): Predicate {
    const list = () => sql.join(values.map((v) => sql`${v}`));
    switch (c.operator) {
      case '=':
        return sql`${column} = ${values[0]}`;
      case '<>':
        return sql`${column} <> ${values[0]}`;
      case '>':
        return sql`${column} > ${values[0]}`;
      case '>=':
        return sql`${column} >= ${values[0]}`;
      case '<':
        return sql`${column} < ${values[0]}`;
      case '<=':
        return sql`${column} <= ${values[0]}`;
      case 'IN':
        return sql`${column} in (${list()})`;
      case 'NOT IN':
        return sql`${column} not in (${list()})`;
      case 'BETWEEN':
        return sql`${column} between ${values[0]} and ${values[1]}`;
      case 'NOT BETWEEN':
        return sql`${column} not between ${values[0]} and ${values[1]}`;
      case 'IS NULL':
        return sql`${column} is null`;
      case 'IS NOT NULL':
        return sql`${column} is not null`;
      default:
        return sql`${foldSql(this.dialect, column)} like ${foldSql(this.dialect, sql`${values[0]}`)} escape '\\'`;
    }
  }

  /**
   * ORDER BY terms. A sort over relationships follows to-one relationships only (a to-many has no single value),
   * as a scalar subquery that yields NULL for a row the reader may not read. NULLs sort first ascending and last
   * descending on both databases. A column of the row itself that is never NULL is sorted on bare, so an index on
   * it gives the order (the handler directory's `sort=title` walks an index and stops after a page).
   */
  orderBy(def: ResourceDef, alias: string, sort: SortField[]): RawBuilder<unknown>[] {
    const terms: RawBuilder<unknown>[] = [];
    for (const field of sort) {
      const parameter = 'sort';
      const path = resolvePath(this.registry, def, field.path, parameter);
      if (path.hops.some((h) => h.rel.kind === 'many')) {
        throw badParameter(parameter, `"${field.path}" goes through a list relationship and cannot be sorted on.`);
      }
      const expression = this.sortExpression(path, alias, field.path);
      const direction = sql.raw(field.descending ? 'desc' : 'asc');
      if (mayBeNull(path)) {
        terms.push(
          sql`(case when ${expression} is null then ${sql.raw(field.descending ? '1' : '0')} else ${sql.raw(field.descending ? '0' : '1')} end)`,
        );
      }
      terms.push(sql`${expression} ${direction}`);
    }
    terms.push(sql`${this.ref(alias, 'id')} asc`);
    return terms;
  }

  private sortExpression(path: ResolvedPath, alias: string, name: string): RawBuilder<unknown> {
    const build = (hops: Hop[], at: string): RawBuilder<unknown> => {
      if (hops.length === 0) {
        const { column, codec, guard } = this.terminalColumn(path.terminal, at);
        if (codec === 'json') throw badParameter('sort', `"${name}" is a list and cannot be sorted on.`);
        if (guard) return sql`(case when ${guard} then ${column} end)`;
        // A computed field may be a constant (`status`, `langcode`): bare in ORDER BY, PostgreSQL refuses it ("non-
        // integer constant") and SQLite reads an integer as a column's position. As a subquery it is a value.
        const derived = path.terminal.kind === 'attribute' && path.terminal.attribute.derived;
        return derived ? sql`(select ${column})` : column;
      }
      const [hop, ...rest] = hops;
      const next = this.alias();
      const rel = hop.rel as { column: string };
      return sql`(select ${build(rest, next)} from ${sql.table(hop.to.table)} as ${sql.raw(next)} where ${this.ref(next, 'id')} = ${this.ref(at, rel.column)} and ${this.readable(hop.to, next)})`;
    };
    return build(path.hops, alias);
  }
}

const TEXT_MATCHES = new Set(['STARTS_WITH', 'CONTAINS', 'ENDS_WITH']);

/** A comparison other than a LIKE whose column side is folded: any operator on a text attribute (decision 0014). */
function folds(t: Terminal, c: Condition): boolean {
  return t.kind === 'attribute' && t.attribute.codec === 'string' && !TEXT_MATCHES.has(c.operator);
}
const TEXT_CODECS = new Set<Codec>(['string', 'date', 'month', 'datetime']);

/** The codec of a path's last field: ids and foreign keys are text. */
function codecOf(t: Terminal): Codec {
  return t.kind === 'attribute' ? t.attribute.codec : 'string';
}

/** Whether a sort path can yield NULL: through a relationship (an unreadable or missing target), or a nullable or
 * restricted column of the row. */
function mayBeNull(path: ResolvedPath): boolean {
  if (path.hops.length > 0) return true;
  const t = path.terminal;
  if (t.kind === 'id') return false;
  if (t.kind === 'foreignKey') return true;
  return t.attribute.nullable || t.attribute.visibility !== 'public';
}
