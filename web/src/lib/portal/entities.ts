import type { EntityTypeName, EntityTypes } from '@pecan/contract/entities/generated';
import type { Entity } from '../jsonapi/deserialize';

/**
 * Typed readers for deserialized JSON:API entities. The types come from the server's resource registry
 * (contract/src/entities/generated.ts, `npm run generate:entities`): a page names an attribute or relationship of the
 * entity's own type, so a misspelt or removed field is a type error, and the value has the type the API sends.
 */
type AttributesOf<T extends EntityTypeName> = EntityTypes[T]['attributes'];
type RelationshipsOf<T extends EntityTypeName> = EntityTypes[T]['relationships'];

/** A relationship's value once deserialized: the related entity (or null), or the list of them. */
type Related<R> = R extends { one: infer U extends EntityTypeName }
  ? ApiEntity<U> | null
  : R extends { many: infer U extends EntityTypeName }
    ? ApiEntity<U>[]
    : never;

type EntityOfType<T extends EntityTypeName> = {
  id: string;
  type: T;
  meta?: Record<string, unknown>;
  links?: Record<string, unknown>;
} & { [K in keyof AttributesOf<T>]?: AttributesOf<T>[K] } & {
  [K in keyof RelationshipsOf<T>]?: Related<RelationshipsOf<T>[K]>;
};

/**
 * A deserialized resource of type T (a union of types gives a union of entities). Every member may be missing: a
 * sparse fieldset leaves it out, so does a tier its reader does not see, and a related resource that was not included
 * is its identifier only.
 */
export type ApiEntity<T extends EntityTypeName> = T extends EntityTypeName ? EntityOfType<T> : never;

/** Any typed entity. */
export type AnyEntity = ApiEntity<EntityTypeName>;

/**
 * The attributes of E: of any of its types, where E is a union (form 1, 2 or 3), so a page reads a field of one of
 * them without narrowing first; a name none of them has is a type error.
 */
type AttributeName<E extends AnyEntity> = E extends AnyEntity ? keyof AttributesOf<E['type']> & string : never;
/** The value of attribute K: of each of E's types that has it. */
type AttributeValue<E extends AnyEntity, K extends string> = E extends AnyEntity
  ? K extends keyof AttributesOf<E['type']>
    ? AttributesOf<E['type']>[K]
    : never
  : never;
/** The attributes of E whose values (when not null) are of type V: `AttributeNameOf<Invoice, string>`. */
export type AttributeNameOf<E extends AnyEntity, V> = {
  [K in AttributeName<E>]: Exclude<AttributeValue<E, K>, null> extends V ? K : never;
}[AttributeName<E>];

type RelationshipName<E extends AnyEntity> = E extends AnyEntity ? keyof RelationshipsOf<E['type']> & string : never;
/** Relationship K of each of E's types that has it. */
type RelationshipOf<E extends AnyEntity, K extends string> = E extends AnyEntity
  ? K extends keyof RelationshipsOf<E['type']>
    ? RelationshipsOf<E['type']>[K]
    : never
  : never;
type ToOneName<E extends AnyEntity> = {
  [K in RelationshipName<E>]: RelationshipOf<E, K> extends { one: EntityTypeName } ? K : never;
}[RelationshipName<E>];
type ToManyName<E extends AnyEntity> = {
  [K in RelationshipName<E>]: RelationshipOf<E, K> extends { many: EntityTypeName } ? K : never;
}[RelationshipName<E>];
type TargetOf<R> = R extends { one: infer U extends EntityTypeName } | { many: infer U extends EntityTypeName }
  ? U
  : never;

/** The attribute `key` of an entity as the API sent it, or null when the document left it out (or it is null). */
export function attr<E extends AnyEntity, K extends AttributeName<E>>(
  e: E | null | undefined,
  key: K,
): AttributeValue<E, K> | null {
  const v = (e as Entity | null | undefined)?.[key];
  return v === undefined ? null : (v as AttributeValue<E, K> | null);
}

/** A boolean attribute: true only when the API sent true. */
export function bool<E extends AnyEntity>(e: E | null | undefined, key: AttributeNameOf<E, boolean>): boolean {
  return (e as Entity | null | undefined)?.[key] === true;
}

/** The related entity of a to-one relationship, or null (none, or not in the document). */
export function one<E extends AnyEntity, K extends ToOneName<E>>(
  e: E | null | undefined,
  key: K,
): ApiEntity<TargetOf<RelationshipOf<E, K>>> | null {
  const v = (e as Entity | null | undefined)?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as ApiEntity<TargetOf<RelationshipOf<E, K>>>) : null;
}

/** The related entities of a to-many relationship, in the API's order; empty when not in the document. */
export function many<E extends AnyEntity, K extends ToManyName<E>>(
  e: E | null | undefined,
  key: K,
): ApiEntity<TargetOf<RelationshipOf<E, K>>>[] {
  const v = (e as Entity | null | undefined)?.[key];
  return Array.isArray(v) ? (v as ApiEntity<TargetOf<RelationshipOf<E, K>>>[]) : [];
}

/** The signed download link of a file--file (its uri.url), or null. */
export function fileUrl(file: ApiEntity<'file--file'> | null | undefined): string | null {
  const uri = file?.uri as { url?: unknown } | undefined;
  return uri && typeof uri.url === 'string' ? uri.url : null;
}
export function fileName(file: ApiEntity<'file--file'> | null | undefined): string | undefined {
  return attr(file, 'filename') ?? undefined;
}

/** Today as YYYY-MM-DD in the user's own calendar. */
export function todayIso(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** An ISO timestamp in UTC written with +00:00 and no milliseconds. */
export function isoTimestamp(now = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
