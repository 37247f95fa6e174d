import type { AttributeDef, RelationshipDef, ResourceDef, Row } from '../jsonapi/resource.js';

/**
 * The isolation test's model of the data: who may read which row, written from the contract and independent of
 * server/src/resources/access.ts, and what a handler user must never see of the other handlers (their rows' ids and
 * the text values found only in those rows). Pure functions over the resource registry and rows read straight from
 * the database, so a new type or field adds cases without anyone writing them.
 */
export type Who = 'alice' | 'bob' | 'carol' | 'dave';
export interface Viewer {
  who: Who;
  userId: string;
  handlerId: string;
}

/** Rows of every type, by type and id. */
export type Rows = Map<string, Map<string, Row>>;

const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/** Types every signed-in user reads (reference data and published aggregates). */
const PUBLIC = new Set([
  'node--season',
  'node--reporting_period',
  'taxonomy_term--pecan_variety',
  'node--annual_position_report',
  'node--industry_analytics',
]);

/**
 * The handlers a form 1's transfer lines name: the filer chose them, as a form 4 names its receiving handler, so a
 * reader of the form knows their ids (decision 0010). Nothing else of those handlers is shown.
 */
function namedInLines(type: string, r: Row): string[] {
  if (type !== 'node--apc_form_1' || typeof r.interhandler_shipments !== 'string') return [];
  return (JSON.parse(r.interhandler_shipments) as Array<{ receiving_handler: string }>).map((l) =>
    String(l.receiving_handler),
  );
}

/**
 * Links a handler user may legitimately make to another handler's row: a form 4 names the handler that receives the
 * transfer. Everything else pointing at another handler's row is a write the server must refuse.
 */
export const LEGITIMATE_CROSS_LINKS = new Set(['node--apc_form_4.field_receiving_handler']);

export class IsolationModel {
  constructor(
    readonly defs: ResourceDef[],
    readonly rows: Rows,
  ) {}

  def(type: string): ResourceDef {
    const d = this.defs.find((x) => x.type === type);
    if (!d) throw new Error(`unknown type ${type}`);
    return d;
  }

  row(type: string, id: string): Row | undefined {
    return this.rows.get(type)?.get(id);
  }

  rowsOf(type: string): Row[] {
    return [...(this.rows.get(type)?.values() ?? [])];
  }

  /** May `v` read the row at all? A type with a handler_id column and no rule of its own belongs to that handler. */
  readable(v: Viewer, type: string, id: string): boolean {
    const r = this.row(type, id);
    if (!r) return false;
    if (PUBLIC.has(type)) return true;
    switch (type) {
      case 'node--handler':
        // Every active handler by name and number (a transfer names its receiver); the directory's cards; one's own.
        return r.id === v.handlerId || truthy(r.show_in_handler_directory) || r.handler_status === 'active';
      case 'user--user':
        return (
          r.id === v.userId || (r.handler_id === v.handlerId && truthy(r.show_in_directory) && r.status === 'active')
        );
      case 'node--apc_form_4':
        return r.transferring_handler_id === v.handlerId || r.receiving_handler_id === v.handlerId;
      case 'node--monthly_position_report':
        return truthy(r.publish_to_portal);
      case 'file--file':
        return this.readable(v, String(r.owner_type), String(r.owner_id));
      default:
        if ('handler_id' in r) return r.handler_id === v.handlerId;
        throw new Error(`no isolation rule for ${type}: say in isolation-model.ts who may read it`);
    }
  }

  /** May `v` see the row's restricted members (`visibility: 'full'`)? A directory card or a colleague: no. */
  full(v: Viewer, type: string, id: string): boolean {
    if (type === 'node--handler') return id === v.handlerId;
    if (type === 'user--user') return id === v.userId;
    return this.readable(v, type, id);
  }

  /** May `v` see the row's card members (`visibility: 'card'`: a handler's contacts)? Only on a directory card. */
  card(v: Viewer, type: string, id: string): boolean {
    if (type === 'node--handler') return id === v.handlerId || truthy(this.row(type, id)?.show_in_handler_directory);
    return this.full(v, type, id);
  }

  /** Does a member of `visibility` show on the row to `v` (who may read the row)? */
  shows(v: Viewer, type: string, id: string, visibility: string): boolean {
    if (visibility === 'public') return true;
    return visibility === 'card' ? this.card(v, type, id) : this.full(v, type, id);
  }

  /** Rows the viewer may not read, of one type. */
  unreadable(v: Viewer, type: string): Row[] {
    return this.rowsOf(type).filter((r) => !this.readable(v, type, String(r.id)));
  }

  /** The row's owning handlers (for picking "one of each other handler"). */
  owners(type: string, r: Row): string[] {
    if (type === 'file--file') {
      const owner = this.row(String(r.owner_type), String(r.owner_id));
      return owner ? this.owners(String(r.owner_type), owner) : [];
    }
    if (type === 'node--handler') return [String(r.id)];
    return ['handler_id', 'transferring_handler_id', 'receiving_handler_id']
      .filter((c) => r[c])
      .map((c) => String(r[c]));
  }

  /** Up to `n` unreadable rows of a type for each other handler (all of them when n is Infinity). */
  sampleUnreadable(v: Viewer, type: string, n: number): Row[] {
    const per = new Map<string, number>();
    return this.unreadable(v, type).filter((r) => {
      const key = this.owners(type, r).find((h) => h !== v.handlerId) ?? '-';
      const seen = per.get(key) ?? 0;
      per.set(key, seen + 1);
      return seen < n;
    });
  }

  /**
   * What the viewer must never see: ids of rows it may not read (except ids a row it may read points at: a form 4
   * names both parties), and text values found only in rows or restricted members it may not read.
   */
  secrets(v: Viewer): { ids: Set<string>; values: Set<string> } {
    const ids = new Set<string>();
    const known = new Set<string>([v.userId, v.handlerId]);
    const secretValues = new Set<string>();
    const visibleValues = new Set<string>();
    for (const def of this.defs) {
      for (const r of this.rowsOf(def.type)) {
        const id = String(r.id);
        const readable = this.readable(v, def.type, id);
        const shown = (visibility: string) => readable && this.shows(v, def.type, id, visibility);
        if (!readable) ids.add(id);
        for (const rel of Object.values(def.relationships)) {
          if (rel.kind === 'one' && shown(rel.visibility) && r[rel.column]) known.add(String(r[rel.column]));
        }
        if (readable) for (const named of namedInLines(def.type, r)) known.add(named);
        for (const a of Object.values(def.attributes)) {
          if (a.codec !== 'string' || typeof r[a.column] !== 'string') continue;
          const value = r[a.column] as string;
          if (shown(a.visibility)) visibleValues.add(value);
          else secretValues.add(value);
        }
        if (def.type === 'file--file' && !readable) secretValues.add(String(r.filename));
        if (def.type === 'file--file' && readable) visibleValues.add(String(r.filename));
      }
    }
    for (const id of known) ids.delete(id);
    const values = new Set(
      // An id the viewer may know (a form names it) is no secret where another row's text holds it too.
      [...secretValues].filter(
        (s) => s.length >= 5 && !visibleValues.has(s) && !known.has(s) && !/^[\d\s.:TZ-]+$/.test(s),
      ),
    );
    return { ids, values };
  }
}

/**
 * Relationship paths from a type, every one up to `depth` hops (`field_form.field_handler.field_handler_analytics`).
 */
export function relationshipPaths(
  model: IsolationModel,
  type: string,
  depth: number,
): Array<{ path: string[]; rels: RelationshipDef[] }> {
  if (depth === 0) return [];
  const out: Array<{ path: string[]; rels: RelationshipDef[] }> = [];
  for (const [name, rel] of Object.entries(model.def(type).relationships)) {
    out.push({ path: [name], rels: [rel] });
    for (const sub of relationshipPaths(model, rel.target, depth - 1))
      out.push({ path: [name, ...sub.path], rels: [rel, ...sub.rels] });
  }
  return out;
}

export interface FieldPath {
  /** Dotted path as the API takes it. */
  path: string;
  /** The relationships crossed, in order. */
  rels: RelationshipDef[];
  /** The type the path ends in, and the attribute there (null: the id). */
  target: ResourceDef;
  attribute: AttributeDef | null;
  name: string;
}

/** Every attribute and id reachable in up to `hops` relationship hops: what filters and sorts may name. */
export function fieldPaths(model: IsolationModel, type: string, hops: number): FieldPath[] {
  const ends = (prefix: string[], rels: RelationshipDef[], def: ResourceDef): FieldPath[] => [
    ...Object.entries(def.attributes).map(([name, attribute]) => ({
      path: [...prefix, name].join('.'),
      rels,
      target: def,
      attribute,
      name,
    })),
    ...(prefix.length > 0
      ? [{ path: [...prefix, 'id'].join('.'), rels, target: def, attribute: null, name: 'id' }]
      : []),
  ];
  const out = ends([], [], model.def(type));
  for (const { path, rels } of relationshipPaths(model, type, hops))
    out.push(...ends(path, rels, model.def(rels[rels.length - 1].target)));
  return out;
}

/** Follows a path's to-one hops from a row through rows the viewer may read; undefined when a hop is not readable. */
export function follow(model: IsolationModel, v: Viewer, row: Row, rels: RelationshipDef[]): Row | null | undefined {
  let at: Row = row;
  for (const rel of rels) {
    if (rel.kind !== 'one') return undefined;
    const id = at[rel.column];
    if (id == null) return null;
    const next = model.row(rel.target, String(id));
    if (!next || !model.readable(v, rel.target, String(id))) return undefined;
    at = next;
  }
  return at;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * What of the viewer's secrets a response shows: ids (anywhere in any string, links included) and secret values,
 * except those the request itself named (an error may repeat the id asked for).
 */
export function leakedSecrets(
  secrets: { ids: Set<string>; values: Set<string> },
  responseText: string,
  requestText: string,
): string[] {
  const found = new Set<string>();
  for (const m of responseText.match(UUID) ?? []) {
    const id = m.toLowerCase();
    if (secrets.ids.has(id) && !requestText.toLowerCase().includes(id)) found.add(`id ${id}`);
  }
  if (secrets.values.size > 0 && responseText.length > 0) {
    const strings: string[] = [];
    try {
      collectStrings(JSON.parse(responseText), strings);
    } catch {
      strings.push(responseText);
    }
    for (const s of strings)
      if (secrets.values.has(s) && !requestText.includes(s) && !requestText.includes(encodeURIComponent(s)))
        found.add(`value "${s}"`);
  }
  return [...found];
}

function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectStrings(v, out);
}
