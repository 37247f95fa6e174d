/** A tiny JSON:API deserializer: flattens attributes and resolves relationships from `included`. */

export interface ResourceIdentifier {
  type: string;
  id: string;
  meta?: Record<string, unknown>;
}

export interface ResourceObject extends ResourceIdentifier {
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: ResourceIdentifier | ResourceIdentifier[] | null; links?: unknown }>;
  links?: Record<string, unknown>;
}

export interface JsonApiDocument {
  data?: ResourceObject | ResourceObject[] | null;
  included?: ResourceObject[];
  links?: Record<string, { href: string } | string | undefined>;
  meta?: Record<string, unknown>;
}

/** A deserialized resource: `id`, `type`, the attributes, and each relationship as a resource, a list or null. */
export type Entity = { id: string; type: string } & Record<string, unknown>;

const key = (r: ResourceIdentifier) => `${r.type}:${r.id}`;

/**
 * Deserializes `data` of a document. Related resources found in `data` or `included` are expanded (cycles are
 * shared objects, not infinite copies); unresolved ones stay as `{id, type}` identifiers.
 */
export function deserialize<T extends Entity = Entity>(doc: JsonApiDocument & { data: ResourceObject[] }): T[];
export function deserialize<T extends Entity = Entity>(doc: JsonApiDocument & { data: ResourceObject }): T;
export function deserialize<T extends Entity = Entity>(doc: JsonApiDocument): T | T[] | null;
export function deserialize<T extends Entity = Entity>(doc: JsonApiDocument): T | T[] | null {
  const index = new Map<string, ResourceObject>();
  const primary = doc.data;
  for (const r of doc.included ?? []) index.set(key(r), r);
  if (Array.isArray(primary)) for (const r of primary) index.set(key(r), r);
  else if (primary) index.set(key(primary), primary);

  const built = new Map<string, Entity>();
  const build = (ref: ResourceIdentifier): Entity => {
    const k = key(ref);
    const done = built.get(k);
    if (done) return done;
    const source = index.get(k);
    const entity: Entity = { id: ref.id, type: ref.type };
    if (ref.meta) entity.meta = ref.meta;
    built.set(k, entity);
    if (!source) return entity;
    Object.assign(entity, source.attributes ?? {});
    if (source.links) entity.links = source.links;
    for (const [name, rel] of Object.entries(source.relationships ?? {})) {
      const data = rel?.data;
      if (data === undefined) continue;
      if (data === null) entity[name] = null;
      else if (Array.isArray(data)) entity[name] = data.map(build);
      else entity[name] = build(data);
    }
    return entity;
  };

  if (primary === null || primary === undefined) return null;
  return Array.isArray(primary) ? (primary.map(build) as T[]) : (build(primary) as T);
}

/** The `links.next` URL of a collection document, if any. */
export function nextLink(doc: JsonApiDocument): string | null {
  const next = doc.links?.next;
  if (!next) return null;
  return typeof next === 'string' ? next : (next.href ?? null);
}

/** The first resource of a collection document (a read of one, `page[limit]=1`), or null when it found none. */
export function firstOf<T extends Entity = Entity>(doc: JsonApiDocument | null): T | null {
  const list = doc ? deserialize<T>(doc) : null;
  return Array.isArray(list) ? (list[0] ?? null) : null;
}

/**
 * A saved entity with the related resources its cached copy had expanded, where they are still the same ones: a
 * write's answer names its relations by id only, and a page that shows the season's title must not lose it on save.
 */
export function keepExpanded<T extends Entity>(saved: T, cached: Entity | undefined): T {
  if (!cached) return saved;
  const out: Record<string, unknown> = { ...saved };
  for (const [name, before] of Object.entries(cached)) {
    const now = saved[name];
    if (isEntity(before) && isEntity(now) && before.id === now.id && before.type === now.type) out[name] = before;
  }
  return out as T;
}

const isEntity = (v: unknown): v is Entity =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Entity).id === 'string' && 'type' in v;
