/**
 * What the API reference page shows, read from the server's OpenAPI description (/jsonapi/openapi.json, generated
 * from the resource registry): per type its address, the operations it takes, its attributes (kind, unit, allowed
 * values, whether a client may filter, sort or write it) and its relationships. Pure, so it is unit-tested.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export interface AttributeRow {
  name: string;
  kind: string;
  unit?: string;
  allowed?: string[];
  filterable: boolean;
  writable: boolean;
  restricted: boolean;
  nullable: boolean;
  description?: string;
}

export interface RelationshipRow {
  name: string;
  target: string;
  many: boolean;
  writable: boolean;
  restricted: boolean;
}

export interface TypeReference {
  type: string;
  path: string;
  methods: string[];
  defaultSort?: string;
  attributes: AttributeRow[];
  relationships: RelationshipRow[];
}

export interface ApiReference {
  title: string;
  version: string;
  types: TypeReference[];
  parameters: Array<{ name: string; description: string }>;
}

function kindOf(schema: any): string {
  const types = [schema.type].flat().filter((t: unknown) => t && t !== 'null');
  const type = types[0] ?? (schema.enum ? 'string' : 'object');
  if (schema.format) return `${type} (${schema.format})`;
  if (type === 'string' && schema.pattern === '^-?\\d+\\.\\d{2}$') return 'decimal (2 places)';
  if (type === 'string' && schema.pattern === '^-?\\d+\\.\\d{4}$') return 'decimal (4 places)';
  if (type === 'string' && schema.pattern?.startsWith('^\\d{4}-(0')) return 'month (YYYY-MM)';
  if (type === 'array') return 'list';
  return String(type);
}

export function apiReference(document: any): ApiReference {
  const schemas = document?.components?.schemas ?? {};
  const types: TypeReference[] = Object.values(schemas)
    .filter((s: any) => typeof s?.['x-jsonapi-type'] === 'string')
    .map((s: any) => {
      const path = String(s['x-path']);
      const collection = document.paths?.[path] ?? {};
      const item = document.paths?.[`${path}/{id}`] ?? {};
      const methods = ['get', 'post', 'patch', 'delete']
        .filter((m) => collection[m] || item[m])
        .map((m) => m.toUpperCase());
      const attributes: AttributeRow[] = Object.entries<any>(s.properties?.attributes?.properties ?? {}).map(
        ([name, a]) => ({
          name,
          kind: kindOf(a),
          unit: a['x-unit'],
          allowed: a.enum?.filter((v: unknown) => v !== null).map(String),
          filterable: a['x-filterable'] === true,
          writable: a.readOnly !== true,
          restricted: a['x-visibility'] === 'restricted',
          nullable: [a.type].flat().includes('null') || (a.enum ?? []).includes(null),
          description: a.description,
        }),
      );
      const relationships: RelationshipRow[] = Object.entries<any>(s.properties?.relationships?.properties ?? {}).map(
        ([name, r]) => ({
          name,
          target: String(r['x-target']),
          many: r['x-cardinality'] === 'many',
          writable: r.readOnly !== true,
          restricted: r['x-visibility'] === 'restricted',
        }),
      );
      return {
        type: String(s['x-jsonapi-type']),
        path,
        methods,
        defaultSort: s['x-default-sort'],
        attributes,
        relationships,
      };
    })
    .sort((a, b) => a.type.localeCompare(b.type));
  const parameters = Object.values<any>(document?.components?.parameters ?? {}).map((p) => ({
    name: String(p.name),
    description: String(p.description ?? ''),
  }));
  return {
    title: String(document?.info?.title ?? ''),
    version: String(document?.info?.version ?? ''),
    types,
    parameters,
  };
}
