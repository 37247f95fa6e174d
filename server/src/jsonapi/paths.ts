import { badParameter } from '../lib/errors.js';
import type { Registry } from './registry.js';
import type { AttributeDef, RelationshipDef, ResourceDef, ToOneDef } from './resource.js';
import { own } from './limits.js';

/** One hop of a dotted path: from a row of `from` over `rel` to rows of `to`. */
export interface Hop {
  name: string;
  from: ResourceDef;
  rel: RelationshipDef;
  to: ResourceDef;
}

/**
 * Where a dotted path ends:
 * - attribute: a column of the last type reached;
 * - id: the id of the last type reached;
 * - foreignKey: `field_handler.id` (or just `field_handler`) read straight from this row's foreign key column,
 *   which needs no join.
 */
export type Terminal =
  | { kind: 'attribute'; owner: ResourceDef; name: string; attribute: AttributeDef }
  | { kind: 'id'; owner: ResourceDef }
  | { kind: 'foreignKey'; owner: ResourceDef; name: string; rel: ToOneDef };

export interface ResolvedPath {
  hops: Hop[];
  terminal: Terminal;
}

/** Resolves `field_reporting_period.field_season.field_season_start_date` against the types' definitions. */
export function resolvePath(registry: Registry, root: ResourceDef, path: string, parameter: string): ResolvedPath {
  const segments = path.split('.').filter((s) => s !== 'entity');
  const hops: Hop[] = [];
  let at = root;
  for (let i = 0; i < segments.length; i += 1) {
    const name = segments[i];
    const last = i === segments.length - 1;
    if (name === 'id' && last) return finish(hops, { kind: 'id', owner: at });
    const attribute = own(at.attributes, name);
    if (attribute) {
      if (!last) throw badParameter(parameter, `"${name}" in "${path}" is a field of ${at.type}, not a relationship.`);
      return { hops, terminal: { kind: 'attribute', owner: at, name, attribute } };
    }
    const rel = own(at.relationships, name);
    if (!rel) throw badParameter(parameter, `${at.type} has no field "${name}" (in "${path}").`);
    const next = segments[i + 1];
    if (rel.kind === 'one' && (last || (next === 'id' && i + 1 === segments.length - 1))) {
      return { hops, terminal: { kind: 'foreignKey', owner: at, name, rel } };
    }
    const to = registry.get(rel.target);
    hops.push({ name, from: at, rel, to });
    at = to;
    if (last) return finish(hops, { kind: 'id', owner: at });
  }
  throw badParameter(parameter, `"${path}" is not a field path.`);
}

function finish(hops: Hop[], terminal: Terminal): ResolvedPath {
  return { hops, terminal };
}
