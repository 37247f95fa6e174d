import { notFound } from '../lib/errors.js';
import type { ResourceDef } from './resource.js';

/** Every resource type the API serves, by type name and by URL (entity + bundle). */
export class Registry {
  private readonly byType = new Map<string, ResourceDef>();

  constructor(defs: ResourceDef[]) {
    for (const def of defs) this.byType.set(def.type, def);
    for (const def of defs) this.checkReferences(def);
  }

  get(type: string): ResourceDef {
    const def = this.byType.get(type);
    if (!def) throw new Error(`Unknown resource type ${type}`);
    return def;
  }

  find(type: string): ResourceDef | undefined {
    return this.byType.get(type);
  }

  /** `/jsonapi/node/invoice` -> node--invoice; a 404 for a type we do not serve. */
  byPath(entity: string, bundle: string): ResourceDef {
    const def = this.byType.get(`${entity}--${bundle}`);
    if (!def) throw notFound(`There is no resource type ${entity}--${bundle}.`);
    return def;
  }

  all(): ResourceDef[] {
    return [...this.byType.values()];
  }

  /** Fail at start-up, not in a request, when a definition names a type that does not exist. */
  private checkReferences(def: ResourceDef): void {
    for (const [name, rel] of Object.entries(def.relationships)) {
      if (!this.byType.has(rel.target)) throw new Error(`${def.type}.${name} points at unknown type ${rel.target}`);
    }
  }
}
