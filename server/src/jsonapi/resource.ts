import { sql, type RawBuilder } from 'kysely';
import type { AppContext, Viewer } from '../context.js';
import type { Codec } from './codecs.js';
import type { Db, Dialect } from '../db/database.js';

/** A SQL condition over one aliased row, e.g. `t3.handler_id = $1`. */
export type Predicate = RawBuilder<unknown>;

/**
 * Who sees what of a row. `read` decides whether the row is visible at all; `card` whether its card members are
 * (a handler's directory card: every active handler is readable by name and number, its contacts only when it is in
 * the directory); `full` whether its restricted members are (its packet confirmations only by itself). Where `full`
 * holds, so does `card`; a type without a `card` rule shows its card members to every reader.
 */
export interface AccessRules {
  read(viewer: Viewer, alias: string): Predicate;
  card?(viewer: Viewer, alias: string): Predicate;
  full?(viewer: Viewer, alias: string): Predicate;
}

/**
 * `public`: shown to anyone who may read the row; `card`: only where the `card` (or `full`) rule holds; `full`:
 * only where the `full` rule holds.
 */
export type Visibility = 'public' | 'card' | 'full';

/** What of a loaded row its reader sees beyond the public members. */
export interface SeenTiers {
  card: boolean;
  full: boolean;
}

/** Whether a member of `visibility` is shown on a row its reader sees with `seen`. */
export function shows(visibility: Visibility, seen: SeenTiers): boolean {
  return visibility === 'public' || (visibility === 'card' ? seen.card || seen.full : seen.full);
}

export interface AttributeDef {
  column: string;
  codec: Codec;
  visibility: Visibility;
  /** Clients may set it (subject to the type's write rules). Computed and system fields are not writable. */
  writable: boolean;
  nullable: boolean;
  /**
   * An attribute with no column of its own (Drupal's base fields a client filters on: a node's `status`, its
   * `drupal_internal__nid`): its value computed from the row's columns for documents, and the same value as a SQL
   * expression for filters and sorts. `column` is then the first of `columns`.
   */
  derived?: DerivedAttribute;
  /** What the machine-readable description says of the field (openapi.ts): its unit, or a sentence. */
  description?: string;
  /** The only values the field takes, when they are a fixed list. */
  allowed?: readonly string[];
}

export interface DerivedAttribute {
  /** The columns the value is computed from. */
  columns: string[];
  value(row: Row): unknown;
  sql(alias: string, dialect: Dialect): RawBuilder<unknown>;
}

export interface ToOneDef {
  kind: 'one';
  target: string;
  /** The foreign key column on this table. */
  column: string;
  visibility: Visibility;
  writable: boolean;
}

export interface ToManyDef {
  kind: 'many';
  target: string;
  /** The column on the target's table that points back at this row. */
  foreignColumn: string;
  /** The target's columns that order the list (oldest version first, rows in entry order). */
  orderBy: string[];
  visibility: Visibility;
}

export type RelationshipDef = ToOneDef | ToManyDef;

/** A row as read from the database: column name to raw value. */
export type Row = Record<string, unknown>;

export interface WriteInput {
  /** Column values decoded from the request's attributes and to-one relationships. */
  values: Row;
  /** The API names the request set, for error pointers. */
  attributes: Record<string, unknown>;
  relationships: Record<string, { type: string; id: string } | null>;
  /** `meta` of the resource object (e.g. `changed` for optimistic concurrency). */
  meta: Record<string, unknown>;
}

export interface WriteContext {
  ctx: AppContext;
  viewer: Viewer;
  db: Db;
  def: ResourceDef;
}

/** A type's writes. A method that is absent answers 405. Each runs inside one transaction (`w.db`). */
export interface WriteHandlers {
  create?(w: WriteContext, input: WriteInput, id: string | undefined): Promise<string>;
  update?(w: WriteContext, row: Row, input: WriteInput): Promise<void>;
  delete?(w: WriteContext, row: Row): Promise<void>;
  /** Adding to a to-many relationship (POST .../relationships/field). */
  addToRelationship?(w: WriteContext, row: Row, field: string, ids: string[]): Promise<void>;
}

/** What a computed attribute may link with: the document's base address and a signer of file download links. */
export interface DocumentLinks {
  baseUrl: string;
  signLink: (fileId: string, filename: string) => string;
}

export interface ResourceDef {
  /** `node--handler`, `user--user`, `file--file`. */
  type: string;
  entity: string;
  bundle: string;
  table: string;
  attributes: Record<string, AttributeDef>;
  relationships: Record<string, RelationshipDef>;
  access: AccessRules;
  /** Attribute used for the default sort when none is asked for. */
  defaultSort?: string;
  writes?: WriteHandlers;
  /** Columns never selected for documents (file contents). */
  hiddenColumns?: string[];
  /** Attributes computed for documents rather than stored (a file's `uri`), so `fields[type]` may name them. */
  computedAttributes?: string[];
  /** Makes a row's `computedAttributes` for a document, with the document's address and its file link signer. */
  computeAttributes?(row: Row, links: DocumentLinks): Record<string, unknown>;
  /**
   * Checks a write's attributes beyond their codecs (ranges, lists). Run only when decoding already failed, so one
   * 422 lists every invalid field at once; the type's write handler validates again either way.
   */
  validateAttributes?(attributes: Record<string, unknown>): Array<{ field: string; message: string }>;
}

type AttrOptions = Partial<Pick<AttributeDef, 'visibility' | 'writable' | 'nullable' | 'description' | 'allowed'>>;

/** Shorthand for an attribute: `attr('handler_number', 'string', { writable: true })`. */
export function attr(column: string, codec: Codec, options: AttrOptions = {}): AttributeDef {
  return {
    column,
    codec,
    visibility: options.visibility ?? 'public',
    writable: options.writable ?? false,
    nullable: options.nullable ?? true,
    ...(options.description ? { description: options.description } : {}),
    ...(options.allowed ? { allowed: options.allowed } : {}),
  };
}

/** A read-only attribute computed from the row (see AttributeDef.derived); never null. */
export function derivedAttr(codec: Codec, derived: DerivedAttribute, description: string): AttributeDef {
  return {
    column: derived.columns[0],
    codec,
    visibility: 'public',
    writable: false,
    nullable: false,
    derived,
    description,
  };
}

/** The SQLite function that turns a UUID into its Drupal-style integer id (database.ts registers it). */
export const SQLITE_SERIAL_FUNCTION = 'portal_serial';

/**
 * A stable integer for a row whose key is a UUID (the schema has no integer keys): the UUID's first 13 hex digits
 * (52 bits, a safe JavaScript integer). Ids are lower-case hex, so these integers sort as the ids do.
 */
export function serialOf(id: unknown): number {
  return Number.parseInt(String(id).replace(/-/g, '').slice(0, 13), 16);
}

function serialSql(alias: string, dialect: Dialect): RawBuilder<unknown> {
  const id = sql.ref(`${alias}.id`);
  if (dialect === 'sqlite') return sql`${sql.raw(SQLITE_SERIAL_FUNCTION)}(${id})`;
  return sql`(('x' || replace(substr(${id}, 1, 15), '-', ''))::bit(52)::bigint)`;
}

/** `drupal_internal__nid` of nodes, `drupal_internal__uid` of users. */
export function serialAttr(what: string): AttributeDef {
  return derivedAttr(
    'int',
    { columns: ['id'], value: (row) => serialOf(row.id), sql: serialSql },
    `Drupal's integer id of the ${what}: a stable number made from the first 13 hex digits of its UUID (the UUID is the id to use).`,
  );
}

export function toOne(
  target: string,
  column: string,
  options: Partial<Pick<ToOneDef, 'visibility' | 'writable'>> = {},
): ToOneDef {
  return {
    kind: 'one',
    target,
    column,
    visibility: options.visibility ?? 'public',
    writable: options.writable ?? false,
  };
}

export function toMany(
  target: string,
  foreignColumn: string,
  orderBy: string[],
  visibility: Visibility = 'public',
): ToManyDef {
  return { kind: 'many', target, foreignColumn, orderBy, visibility };
}

/** The one language of the portal's content. */
export const LANGCODE = 'en';

/**
 * title, created, changed: on every node; and Drupal's base fields that clients filter on, computed: `status` (every
 * node the reader can read is published), `langcode` (all content is English) and `drupal_internal__nid`.
 */
export function nodeAttributes(writableTitle = false): Record<string, AttributeDef> {
  return {
    drupal_internal__nid: serialAttr('node'),
    langcode: derivedAttr(
      'string',
      { columns: ['id'], value: () => LANGCODE, sql: () => sql`${sql.lit(LANGCODE)}` },
      'The language of the content: always "en".',
    ),
    status: derivedAttr(
      'bool',
      { columns: ['id'], value: () => true, sql: (_alias, dialect) => sql.raw(dialect === 'sqlite' ? '1' : 'true') },
      'Published: always true (a node you can read is published).',
    ),
    title: attr('title', 'string', { writable: writableTitle, nullable: false }),
    created: attr('created', 'datetime', { nullable: false }),
    changed: attr('changed', 'datetime', { nullable: false }),
  };
}
