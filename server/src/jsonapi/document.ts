import { toApi } from './codecs.js';
import type { Query } from './query-params.js';
import { bytesBoundedCache } from '../lib/lru.js';
import type { LRUCache } from 'lru-cache';
import { resourceKey, type Loaded, type ManyLinkage, type ReadResult } from './read.js';
import {
  shows,
  type AttributeDef,
  type RelationshipDef,
  type ResourceDef,
  type Row,
  type SeenTiers,
  type Visibility,
} from './resource.js';

export const JSONAPI = { version: '1.0', meta: { links: { self: { href: 'http://jsonapi.org/format/1.0/' } } } };

/** Values a type computes for its documents rather than stores (a file's signed link). */
export type ComputedAttributes = (def: ResourceDef, row: Row) => Record<string, unknown>;

export interface DocumentContext {
  baseUrl: string;
  query: Query;
  computed?: ComputedAttributes;
}

export function itemPath(def: ResourceDef, id: unknown): string {
  return `/jsonapi/${def.entity}/${def.bundle}/${String(id)}`;
}

/**
 * What a resource object of one type shows to one kind of reader under one fieldset: its attributes (name, column,
 * codec) and relationships, worked out once. Working them out for every row (a fieldset's set, every field's
 * visibility, the hidden columns) was a visible share of the long reads, which write hundreds of rows of one type.
 */
interface ObjectPlan {
  attributes: Array<{ name: string; column: string; codec: AttributeDef['codec']; derived?: AttributeDef['derived'] }>;
  shown: Set<string> | null;
  relationships: Array<{ name: string; rel: RelationshipDef }>;
}
/** Bytes of plans kept per type: a plan is a few small objects per field (an estimate, counted generously). */
const PLAN_BYTES_PER_TYPE = 256 * 1024;
const planBytes = (key: string, plan: ObjectPlan) =>
  256 + key.length * 2 + (plan.attributes.length + plan.relationships.length) * 96 + (plan.shown?.size ?? 0) * 64;
const plans = new WeakMap<ResourceDef, LRUCache<string, ObjectPlan>>();

function objectPlan(def: ResourceDef, seen: SeenTiers, fieldset: string[] | undefined): ObjectPlan {
  const key = `${tierKey(seen)}|${fieldset ? fieldset.join(',') : '*'}`;
  let byShape = plans.get(def);
  if (!byShape) plans.set(def, (byShape = bytesBoundedCache(PLAN_BYTES_PER_TYPE, planBytes)));
  let plan = byShape.get(key);
  if (!plan) {
    const shown = fieldset ? new Set(fieldset) : null;
    const want = (name: string, visibility: Visibility) => (!shown || shown.has(name)) && shows(visibility, seen);
    const hidden = new Set(def.hiddenColumns ?? []);
    plan = {
      attributes: Object.entries(def.attributes)
        .filter(([name, a]) => want(name, a.visibility) && !hidden.has(a.column))
        .map(([name, a]) => ({ name, column: a.column, codec: a.codec, derived: a.derived })),
      shown,
      relationships: Object.entries(def.relationships)
        .filter(([name, rel]) => want(name, rel.visibility))
        .map(([name, rel]) => ({ name, rel })),
    };
    byShape.set(key, plan);
  }
  return plan;
}

/** The kind of reader a row has: what it sees beyond the public members. */
const tierKey = (seen: SeenTiers) => (seen.full ? 'full' : seen.card ? 'card' : 'public');

type PlanOf = (def: ResourceDef, seen: SeenTiers) => ObjectPlan;

/**
 * A document's plans by type and kind of reader: the shared plans' key (the fieldset joined) is made once per document,
 * not per row.
 */
function documentPlans(doc: DocumentContext): PlanOf {
  const found = new Map<ResourceDef, { full?: ObjectPlan; card?: ObjectPlan; public?: ObjectPlan }>();
  return (def, seen) => {
    let byKind = found.get(def);
    if (!byKind) found.set(def, (byKind = {}));
    return (byKind[tierKey(seen)] ??= objectPlan(def, seen, doc.query.fields[def.type]));
  };
}

/** One resource object: attributes and relationships the reader may see, in the sparse fieldset if one is asked. */
function resourceObject(
  loaded: Loaded,
  linkage: ManyLinkage,
  doc: DocumentContext,
  planOf: PlanOf,
): Record<string, unknown> {
  const { def, row } = loaded;
  const plan = planOf(def, loaded);
  const self = `${doc.baseUrl}${itemPath(def, row.id)}`;

  const attributes: Record<string, unknown> = {};
  for (const a of plan.attributes)
    attributes[a.name] = a.derived ? a.derived.value(row) : toApi(a.codec, row[a.column]);
  if (doc.computed) {
    for (const [name, value] of Object.entries(doc.computed(def, row)))
      if (!plan.shown || plan.shown.has(name)) attributes[name] = value;
  }

  const object: Record<string, unknown> = {
    type: def.type,
    id: String(row.id),
    links: { self: { href: self } },
    attributes,
  };
  if (plan.relationships.length === 0) return object;
  const relationships: Record<string, unknown> = {};
  const many = linkage.get(resourceKey(def.type, row.id));
  for (const { name, rel } of plan.relationships) {
    const data =
      rel.kind === 'one'
        ? row[rel.column]
          ? { type: rel.target, id: String(row[rel.column]) }
          : null
        : (many?.get(name) ?? []).map((id) => ({ type: rel.target, id }));
    relationships[name] = {
      data,
      links: { related: { href: `${self}/${name}` }, self: { href: `${self}/relationships/${name}` } },
    };
  }
  object.relationships = relationships;
  return object;
}

function omittedMeta(result: ReadResult, baseUrl: string, registry: (type: string) => ResourceDef) {
  if (result.omitted.length === 0) return undefined;
  const links: Record<string, unknown> = {
    help: { href: 'https://www.drupal.org/docs/8/modules/json-api/filtering#filters-access-control' },
  };
  result.omitted.forEach((o, i) => {
    links[`item--${i}`] = {
      href: `${baseUrl}${itemPath(registry(o.type), o.id)}`,
      meta: { rel: 'item', detail: `The current user is not allowed to view this ${o.type}.` },
    };
  });
  return { omitted: { detail: 'Some resources have been omitted because of insufficient authorization.', links } };
}

export function buildDocument(
  result: ReadResult,
  doc: DocumentContext,
  selfUrl: string,
  registry: (type: string) => ResourceDef,
  paging?: PageLinks,
): Record<string, unknown> {
  const planOf = documentPlans(doc);
  const data = result.single
    ? result.primary[0]
      ? resourceObject(result.primary[0], result.linkage, doc, planOf)
      : null
    : result.primary.map((p) => resourceObject(p, result.linkage, doc, planOf));
  const document: Record<string, unknown> = { jsonapi: JSONAPI, data };
  if (doc.query.include.length > 0)
    document.included = result.included.map((l) => resourceObject(l, result.linkage, doc, planOf));
  const links: Record<string, unknown> = { self: { href: selfUrl } };
  if (paging?.next) links.next = { href: paging.next };
  if (paging?.first) links.first = { href: paging.first };
  if (paging?.prev) links.prev = { href: paging.prev };
  document.links = links;
  const meta = omittedMeta(result, doc.baseUrl, registry);
  if (meta) document.meta = meta;
  return document;
}

export interface PageLinks {
  next?: string;
  first?: string;
  prev?: string;
}

/**
 * The pager links, as Drupal writes them: the same request with page[offset] moved. `next` when there is more;
 * `first` and `prev` when the offset is above 0 (`prev` never below 0). Like Drupal without a total count, no
 * `last`: the total is not counted.
 */
export function pageLinks(selfUrl: string, query: Query, hasMore: boolean): PageLinks {
  const at = (offset: number) => {
    const url = new URL(selfUrl);
    url.searchParams.set('page[offset]', String(offset));
    url.searchParams.set('page[limit]', String(query.page.limit));
    return url.toString();
  };
  const { offset, limit } = query.page;
  return {
    next: hasMore ? at(offset + limit) : undefined,
    first: offset > 0 ? at(0) : undefined,
    prev: offset > 0 ? at(Math.max(0, offset - limit)) : undefined,
  };
}
