import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { badParameter, forbidden, notFound } from '../lib/errors.js';
import type { Compiler } from './compile.js';
import type { FilterTree, Query } from './query-params.js';
import type { Registry } from './registry.js';
import { shows, type Predicate, type ResourceDef, type Row, type SeenTiers, type ToManyDef } from './resource.js';
import { compiledOnce } from './shape-cache.js';
import { checkSqlLength, own } from './limits.js';

/** A row with the type it belongs to and whether the reader sees its restricted members. */
export interface Loaded extends SeenTiers {
  def: ResourceDef;
  row: Row;
}

/** To-many linkage found for a loaded row: `${type}:${id}` -> field -> target ids in order. */
export type ManyLinkage = Map<string, Map<string, string[]>>;

export interface ReadResult {
  primary: Loaded[];
  /** A single resource (item, to-one related) rather than a collection. */
  single: boolean;
  included: Loaded[];
  omitted: Array<{ type: string; id: string }>;
  linkage: ManyLinkage;
  hasMore: boolean;
}

const key = (type: string, id: unknown) => `${type}:${String(id)}`;

/**
 * The columns a document needs: id, the attributes it shows (all of them, or those of a sparse fieldset
 * `fields[type]`), every to-one foreign key (the relationships' linkage and includes read them whatever the
 * fieldset), never file contents. A type with computed attributes (files) is always read whole: what they are
 * computed from is the type's own business. Kept per type, alias (r1, r2... per request) and fieldset: column
 * references carry no values, so they are the same for every reader, and building them was a share of every read's
 * cost. Reading only a fieldset's columns matters for the wide form tables (form 1 has about forty).
 */
const MAX_CACHED_SHAPES = 64;
const columnCache = new WeakMap<ResourceDef, Map<string, readonly RawBuilder<unknown>[]>>();
export function selectColumns(
  def: ResourceDef,
  alias: string,
  shown: Set<string> | null = null,
): readonly RawBuilder<unknown>[] {
  const fieldset = shown && !def.computedAttributes?.length ? shown : null;
  const cacheKey = fieldset ? `${alias}|${[...fieldset].join(',')}` : alias;
  let byShape = columnCache.get(def);
  if (!byShape) columnCache.set(def, (byShape = new Map()));
  let refs = byShape.get(cacheKey);
  if (!refs) {
    const columns = new Set<string>(['id']);
    for (const [name, a] of Object.entries(def.attributes)) {
      if (!fieldset || fieldset.has(name)) for (const c of a.derived?.columns ?? [a.column]) columns.add(c);
    }
    for (const r of Object.values(def.relationships)) if (r.kind === 'one') columns.add(r.column);
    for (const hidden of def.hiddenColumns ?? []) columns.delete(hidden);
    refs = [...columns].map((c) => sql.ref(`${alias}.${c}`));
    // Aliases grow with the number of filters, fieldsets are the caller's: neither may grow the cache without end.
    if (byShape.size < MAX_CACHED_SHAPES) byShape.set(cacheKey, refs);
  }
  return refs;
}

/**
 * Two columns saying what of the row its reader sees: its card members (`__card`) and its restricted ones (`__full`).
 */
function fullFlag(compiler: Compiler, def: ResourceDef, alias: string): RawBuilder<unknown> {
  const flag = (predicate: Predicate | null, name: string) =>
    predicate ? sql`(case when ${predicate} then 1 else 0 end) as ${sql.ref(name)}` : sql`1 as ${sql.ref(name)}`;
  return sql`${flag(compiler.card(def, alias), '__card')}, ${flag(compiler.full(def, alias), '__full')}`;
}

function toLoaded(def: ResourceDef, rows: Row[]): Loaded[] {
  return rows.map((row) => {
    const { __full, __card, ...rest } = row;
    return { def, row: rest, full: Number(__full) === 1, card: Number(__card) === 1 };
  });
}

/**
 * One collection page: access rule, filters, sorts, limit + 1 to learn whether there is a next page. Limit and offset
 * are written into the SQL (integers checked by query-params.ts): SQLite re-prepares a statement whose LIMIT is a bound
 * parameter at every run (better-sqlite3 clears the bindings after each), which cost the seasons read 17 us where the
 * same statement with literals takes 7 (decision 0007). The statement is kept per shape (type, fieldset, the
 * filters' paths, operators and number of values, sorts, page): the filters' values are checked at every request and
 * put in place of its stand-ins. A related collection's (`extra`, its owner's id) is built at every request.
 */
export async function readCollection(
  db: Db,
  compiler: Compiler,
  def: ResourceDef,
  query: Query,
  extra?: (alias: string) => RawBuilder<unknown>,
): Promise<{ rows: Loaded[]; hasMore: boolean }> {
  const statement = extra
    ? pageStatement(compiler, def, query, extra).compile(db)
    : keptPageStatement(compiler, def, query);
  if (extra) checkSqlLength(statement.sql);
  const { rows } = await db.executeQuery<Row>(statement);
  const hasMore = rows.length > query.page.limit;
  return { rows: toLoaded(def, rows.slice(0, query.page.limit)), hasMore };
}

/** readCollection's statement, built for the reader of `c` (and with the filters' values `c` binds). */
export function pageStatement(
  c: Compiler,
  def: ResourceDef,
  query: Query,
  extra?: (alias: string) => RawBuilder<unknown>,
): RawBuilder<Row> {
  const t = c.alias();
  const sort =
    query.sort.length > 0 ? query.sort : def.defaultSort ? [{ path: def.defaultSort, descending: false }] : [];
  const where = [c.readable(def, t), c.filter(def, t, query.filter)];
  if (extra) where.push(extra(t));
  return sql<Row>`select ${sql.join([...selectColumns(def, t, shownFields(def, query)), fullFlag(c, def, t)])}
    from ${sql.table(def.table)} as ${sql.raw(t)}
    where ${sql.join(where, sql` and `)}
    order by ${sql.join(c.orderBy(def, t, sort))}
    limit ${sql.lit(query.page.limit + 1)} offset ${sql.lit(query.page.offset)}`;
}

/** The page statement kept per shape, with this request's reader and filter values. */
export function keptPageStatement(compiler: Compiler, def: ResourceDef, query: Query): CompiledQuery<Row> {
  const key = `page|${def.type}|${fieldsetKey(shownFields(def, query))}|${pageShape(query)}`;
  return compiledOnce(
    compiler.dialect,
    compiler.keepShapes,
    key,
    compiler.viewer,
    compiler.filterValues(def, query.filter),
    (reader, slot) => pageStatement(compiler.as(reader).slotted(slot), def, query),
  ) as CompiledQuery<Row>;
}

/**
 * What a page statement's text depends on besides type and fieldset: never a filter's value. JSON, so no two differ.
 */
function pageShape(query: Query): string {
  const filter = (tree: FilterTree): unknown[] => [
    tree.conjunction,
    ...tree.members.map((m) => ('kind' in m ? [m.path, m.operator, m.values.length] : filter(m))),
  ];
  return JSON.stringify([filter(query.filter), query.sort, query.page.limit, query.page.offset]);
}

/**
 * A statement of the reads below, compiled once per shape (jsonapi/shape-cache.ts): `build` gets a compiler for the
 * stand-in reader and a stand-in for each of `values`; `key` names all else its text depends on.
 */
async function runShaped(
  db: Db,
  compiler: Compiler,
  key: string,
  values: readonly unknown[],
  build: (c: Compiler, slot: (i: number) => string) => RawBuilder<unknown>,
): Promise<Row[]> {
  const statement = compiledOnce(compiler.dialect, compiler.keepShapes, key, compiler.viewer, values, (reader, slot) =>
    build(compiler.as(reader), slot),
  );
  return (await db.executeQuery<Row>(statement)).rows;
}

const fieldsetKey = (shown: Set<string> | null) => (shown ? [...shown].join(',') : '*');

/** One row by id, or 404 when there is none and 403 when the reader may not see it. */
export async function readItem(db: Db, compiler: Compiler, def: ResourceDef, id: string): Promise<Loaded> {
  const t = compiler.alias();
  const rows = await runShaped(
    db,
    compiler,
    `item|${def.type}|${t}`,
    [id],
    (c, slot) => sql`select ${sql.join([...selectColumns(def, t), fullFlag(c, def, t)])}
    from ${sql.table(def.table)} as ${sql.raw(t)}
    where ${sql.ref(`${t}.id`)} = ${slot(0)} and ${c.readable(def, t)}`,
  );
  if (rows.length > 0) return toLoaded(def, rows)[0];
  const exists = await sql`select 1 from ${sql.table(def.table)} where id = ${id}`.execute(db);
  if (exists.rows.length > 0) throw forbidden(`You are not allowed to view this ${def.bundle}.`);
  throw notFound(`There is no ${def.type} with id ${id}.`);
}

/** Rows of `def` with the given ids that the reader may read (the columns of the fieldset asked for `def`). */
async function readByIds(db: Db, compiler: Compiler, def: ResourceDef, ids: string[], query: Query): Promise<Loaded[]> {
  if (ids.length === 0) return [];
  const t = compiler.alias();
  const shown = shownFields(def, query);
  const rows = await runShaped(
    db,
    compiler,
    `ids|${def.type}|${t}|${fieldsetKey(shown)}|${ids.length}`,
    ids,
    (c, slot) => sql`select ${sql.join([...selectColumns(def, t, shown), fullFlag(c, def, t)])}
    from ${sql.table(def.table)} as ${sql.raw(t)}
    where ${sql.ref(`${t}.id`)} in (${sql.join(ids.map((_, i) => slot(i)))}) and ${c.readable(def, t)}`,
  );
  return toLoaded(def, rows);
}

/**
 * The readable targets of a to-many relationship for many owners in one query: full rows when they are included,
 * or just ids and owners for linkage.
 */
async function readMany(
  db: Db,
  compiler: Compiler,
  rel: ToManyDef,
  target: ResourceDef,
  ownerIds: string[],
  withRows: boolean,
  query: Query,
): Promise<Loaded[]> {
  if (ownerIds.length === 0) return [];
  const t = compiler.alias();
  const shown = shownFields(target, query);
  const key = `many|${target.type}|${rel.foreignColumn}|${rel.orderBy.join(',')}|${withRows ? fieldsetKey(shown) : 'ids'}|${t}|${ownerIds.length}`;
  const rows = await runShaped(db, compiler, key, ownerIds, (c, slot) => {
    const columns = withRows
      ? [...selectColumns(target, t, shown), fullFlag(c, target, t)]
      : [
          sql.ref(`${t}.id`),
          sql.ref(`${t}.${rel.foreignColumn}`),
          sql`1 as ${sql.ref('__card')}, 1 as ${sql.ref('__full')}`,
        ];
    if (
      withRows &&
      !Object.values(target.relationships).some((r) => r.kind === 'one' && r.column === rel.foreignColumn)
    ) {
      columns.push(sql.ref(`${t}.${rel.foreignColumn}`));
    }
    const order = [rel.foreignColumn, ...rel.orderBy, 'id'].map((column) => sql.ref(`${t}.${column}`));
    return sql`select ${sql.join(columns)}
      from ${sql.table(target.table)} as ${sql.raw(t)}
      where ${sql.ref(`${t}.${rel.foreignColumn}`)} in (${sql.join(ownerIds.map((_, i) => slot(i)))}) and ${c.readable(target, t)}
      order by ${sql.join(order)}`;
  });
  return toLoaded(target, rows);
}

/** Relationship names a document shows for a type (all, or those in fields[type]). */
export function shownFields(def: ResourceDef, query: Query): Set<string> | null {
  const list = query.fields[def.type];
  return list ? new Set(list) : null;
}

/** `fields[type]=a,b`: the type must exist and every name must be one of its fields, or it is a 400. */
export function checkFields(registry: Registry, query: Query): void {
  for (const [type, names] of Object.entries(query.fields)) {
    const parameter = `fields[${type}]`;
    const def = registry.find(type);
    if (!def) throw badParameter(parameter, `There is no resource type ${type}.`);
    for (const name of names) {
      if (
        !own(def.attributes, name) &&
        !own(def.relationships, name) &&
        !(def.computedAttributes ?? []).includes(name)
      ) {
        throw badParameter(parameter, `${type} has no field "${name}".`);
      }
    }
  }
}

interface IncludeNode {
  children: Map<string, IncludeNode>;
}

/** `field_form_1.field_form_1_pdf,field_reporting_period` as a tree, checked against the definitions. */
function includeTree(registry: Registry, root: ResourceDef, paths: string[]): IncludeNode {
  const tree: IncludeNode = { children: new Map() };
  for (const path of paths) {
    let node = tree;
    let def = root;
    for (const name of path.split('.')) {
      const rel = own(def.relationships, name);
      if (!rel) throw badParameter('include', `${def.type} has no relationship "${name}" (in include "${path}").`);
      if (!node.children.has(name)) node.children.set(name, { children: new Map() });
      node = node.children.get(name)!;
      def = registry.get(rel.target);
    }
  }
  return tree;
}

/**
 * Loads includes level by level and the to-many linkage of everything in the document: a fixed number of queries
 * per level of the include tree, per type and per to-many field, never one per row. The to-one includes of one level
 * are read once per type whichever branch asked for them: a season's packages read the PDFs of forms 1, 2 and 3
 * (`field_form_N.field_form_N_pdf`) in one query, not three.
 */
export async function loadRelated(
  db: Db,
  compiler: Compiler,
  registry: Registry,
  root: ResourceDef,
  primary: Loaded[],
  query: Query,
): Promise<Pick<ReadResult, 'included' | 'omitted' | 'linkage'>> {
  const included = new Map<string, Loaded>();
  const omitted = new Map<string, { type: string; id: string }>();
  const linkage: ManyLinkage = new Map();
  const seen = new Set(primary.map((l) => key(l.def.type, l.row.id)));
  const linkageDone = new Set<string>();

  /**
   * The to-many linkage of `sources` (of the fields the document shows), and the rows of its included to-many fields,
   * by field. An include is followed even when a sparse fieldset leaves its relationship out, as a to-one's is.
   */
  const loadManyLinkage = async (sources: Loaded[], node: IncludeNode): Promise<Map<string, Loaded[]>> => {
    const def = sources[0].def;
    const shown = shownFields(def, query);
    const includedRows = new Map<string, Loaded[]>();
    for (const [name, rel] of Object.entries(def.relationships)) {
      const inDocument = !shown || shown.has(name);
      if (rel.kind !== 'many' || (!inDocument && !node.children.has(name))) continue;
      // An owner reached by two include paths gets its linkage once.
      const owners = sources
        .filter((s) => shows(rel.visibility, s) && !linkageDone.has(`${key(def.type, s.row.id)}|${name}`))
        .map((s) => String(s.row.id));
      for (const o of owners) linkageDone.add(`${key(def.type, o)}|${name}`);
      const target = registry.get(rel.target);
      const rows = await readMany(db, compiler, rel, target, owners, node.children.has(name), query);
      if (node.children.has(name)) includedRows.set(name, rows);
      if (!inDocument) continue;
      for (const r of rows) {
        const owner = key(def.type, r.row[rel.foreignColumn]);
        if (!linkage.has(owner)) linkage.set(owner, new Map());
        const fields = linkage.get(owner)!;
        if (!fields.has(name)) fields.set(name, []);
        fields.get(name)!.push(String(r.row.id));
      }
    }
    return includedRows;
  };

  /** Rows found for an include: each put into the document once, and passed on to the next level. */
  const admit = (found: Loaded[]): Loaded[] => {
    const fresh: Loaded[] = [];
    for (const f of found) {
      const k = key(f.def.type, f.row.id);
      if (!seen.has(k)) {
        seen.add(k);
        included.set(k, f);
      }
      fresh.push(included.get(k) ?? f);
    }
    return dedupe(fresh);
  };

  const tree = includeTree(registry, root, query.include);
  let level = primary.length > 0 ? [{ sources: primary, node: tree }] : [];
  while (level.length > 0) {
    const steps: Array<{ node: IncludeNode; type: string; ids: string[] } | { node: IncludeNode; rows: Loaded[] }> = [];
    const wanted = new Map<string, Set<string>>();
    for (const { sources, node } of level) {
      const def = sources[0].def;
      const manyRows = await loadManyLinkage(sources, node);
      for (const [name, child] of node.children) {
        const rel = def.relationships[name];
        if (rel.kind === 'many') {
          steps.push({ node: child, rows: manyRows.get(name) ?? [] });
          continue;
        }
        const visible = sources.filter((s) => shows(rel.visibility, s));
        const ids = [
          ...new Set(visible.map((s) => s.row[rel.column]).filter((v): v is string => typeof v === 'string')),
        ];
        if (!wanted.has(rel.target)) wanted.set(rel.target, new Set());
        for (const id of ids) wanted.get(rel.target)!.add(id);
        steps.push({ node: child, type: rel.target, ids });
      }
    }
    const found = new Map<string, Map<string, Loaded>>();
    for (const [type, ids] of wanted) {
      const target = registry.get(type);
      const rows = await readByIds(db, compiler, target, [...ids], query);
      found.set(type, new Map(rows.map((r) => [String(r.row.id), r])));
      for (const id of ids) if (!found.get(type)!.has(id)) omitted.set(key(type, id), { type, id });
    }
    level = [];
    for (const step of steps) {
      const rows = 'rows' in step ? step.rows : step.ids.flatMap((id) => found.get(step.type)!.get(id) ?? []);
      const sources = admit(rows);
      if (sources.length > 0) level.push({ sources, node: step.node });
    }
  }
  return { included: [...included.values()], omitted: [...omitted.values()], linkage };
}

function dedupe(list: Loaded[]): Loaded[] {
  const map = new Map<string, Loaded>();
  for (const l of list) map.set(key(l.def.type, l.row.id), l);
  return [...map.values()];
}

export { key as resourceKey };
