import type { Codec } from './codecs.js';
import { LIMITS } from './limits.js';
import { DEFAULT_LIMIT, MAX_LIMIT, OPERATORS } from './query-params.js';
import type { Registry } from './registry.js';
import type { AttributeDef, RelationshipDef, ResourceDef, Visibility } from './resource.js';

/**
 * The machine-readable description of the JSON:API (OpenAPI 3.1, served at /jsonapi/openapi.json), generated from
 * the resource registry alone: types, their attributes (JSON Schema, with units and allowed values), relationships,
 * the operations each type takes, and the query parameters. It describes types, never data: nothing in it comes from
 * the database, and it is the same for every reader. A restricted attribute is named as such (`x-visibility`), as
 * the contract says who sees it; which rows a reader sees is the access rules' business, not this document's.
 */
type Schema = Record<string, unknown>;

const NULLABLE = (schema: Schema, nullable: boolean): Schema =>
  nullable ? { ...schema, type: [schema.type, 'null'] } : schema;

/** The JSON Schema of an attribute's API value, by codec. */
function codecSchema(codec: Codec): Schema {
  switch (codec) {
    case 'int':
      return { type: 'integer' };
    case 'bool':
      return { type: 'boolean' };
    case 'money':
      return { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', 'x-unit': 'US dollars', examples: ['1234.50'] };
    case 'ratio':
      return { type: 'string', pattern: '^-?\\d+\\.\\d{4}$', examples: ['0.4800'] };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'month':
      return { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$', examples: ['2026-10'] };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {
        type: 'array',
        items: {
          type: 'object',
          properties: { variety: { type: 'string' }, pounds: { type: 'integer', minimum: 0 } },
          required: ['variety', 'pounds'],
        },
      };
    default:
      return { type: 'string' };
  }
}

/** A unit written as "Unit: lb inshell." in a description. */
const unitIn = (description: string | undefined) => /Unit: ([^.]+)\./.exec(description ?? '')?.[1];

export function attributeSchema(a: AttributeDef): Schema {
  const base = codecSchema(a.codec);
  const unit = unitIn(a.description) ?? (base['x-unit'] as string | undefined);
  const schema: Schema = {
    ...base,
    ...(a.allowed ? { enum: a.nullable ? [...a.allowed, null] : [...a.allowed] } : {}),
    ...(a.description ? { description: a.description } : {}),
    ...(unit ? { 'x-unit': unit } : {}),
    ...(a.writable ? {} : { readOnly: true }),
    'x-filterable': a.codec !== 'json',
    'x-sortable': a.codec !== 'json',
    ...VISIBILITY[a.visibility],
  };
  return a.allowed
    ? { ...schema, type: undefined, ...(a.nullable ? {} : { type: base.type }) }
    : NULLABLE(schema, a.nullable);
}

/** How a member's visibility is named: restricted to its own readers, or shown on the directory card only. */
const VISIBILITY: Record<Visibility, Schema> = {
  public: {},
  card: { 'x-visibility': 'card' },
  full: { 'x-visibility': 'restricted' },
};

const linkage = (target: string): Schema => ({
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { const: target }, id: { type: 'string', format: 'uuid' }, meta: { type: 'object' } },
});

function relationshipSchema(rel: RelationshipDef): Schema {
  const data =
    rel.kind === 'one'
      ? { oneOf: [linkage(rel.target), { type: 'null' }] }
      : { type: 'array', items: linkage(rel.target) };
  return {
    type: 'object',
    properties: { data, links: { type: 'object' } },
    'x-target': rel.target,
    'x-cardinality': rel.kind === 'one' ? 'one' : 'many',
    ...(rel.kind === 'one' && rel.writable ? {} : { readOnly: true }),
    ...VISIBILITY[rel.visibility],
  };
}

function resourceSchema(def: ResourceDef): Schema {
  const attributes: Record<string, Schema> = {};
  for (const [name, a] of Object.entries(def.attributes)) attributes[name] = attributeSchema(a);
  for (const name of def.computedAttributes ?? [])
    attributes[name] = {
      type: 'object',
      readOnly: true,
      description: 'Computed for the reader (a signed download link).',
      'x-filterable': false,
      'x-sortable': false,
    };
  const relationships = Object.fromEntries(
    Object.entries(def.relationships).map(([name, rel]) => [name, relationshipSchema(rel)]),
  );
  return {
    type: 'object',
    title: def.type,
    'x-jsonapi-type': def.type,
    'x-path': `/jsonapi/${def.entity}/${def.bundle}`,
    ...(def.defaultSort ? { 'x-default-sort': def.defaultSort } : {}),
    required: ['type', 'id'],
    properties: {
      type: { const: def.type },
      id: { type: 'string', format: 'uuid' },
      attributes: { type: 'object', properties: attributes, additionalProperties: false },
      relationships: { type: 'object', properties: relationships, additionalProperties: false },
      links: { type: 'object' },
      meta: { type: 'object' },
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${encodeURIComponent(name).replace(/~/g, '~0')}` });
const json = (schema: Schema) => ({ 'application/vnd.api+json': { schema } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: '#/components/responses/Error' }]));

const QUERY_PARAMETERS: Record<string, Schema> = {
  filter: {
    name: 'filter',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: { type: 'object' },
    description:
      `Drupal's filter syntax: filter[field]=value, or filter[key][condition][path|operator|value|memberOf] and ` +
      `filter[key][group][conjunction|memberOf]. Operators: ${OPERATORS.join(', ')}. At most ${LIMITS.filterConditions} conditions, ` +
      `${LIMITS.filterGroups} groups, ${LIMITS.filterValues} values, ${LIMITS.pathHops} relationships in a path. Text compares case- and accent-insensitively.`,
  },
  sort: {
    name: 'sort',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: { oneOf: [{ type: 'string' }, { type: 'object' }] },
    description: `sort=-created,title, or sort[key][path]=created&sort[key][direction]=DESC. At most ${LIMITS.sortFields} fields.`,
  },
  include: {
    name: 'include',
    in: 'query',
    schema: { type: 'string' },
    description: `Related resources to include: comma-separated relationship paths (at most ${LIMITS.includes}, ${LIMITS.includeDepth} deep).`,
  },
  fields: {
    name: 'fields',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
    description: 'Sparse fieldsets: fields[node--handler]=title,field_handler_number.',
  },
  page: {
    name: 'page',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: {
      type: 'object',
      properties: {
        offset: { type: 'integer', minimum: 0 },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
      },
    },
    description: `page[offset] and page[limit] (at most ${MAX_LIMIT}, ${DEFAULT_LIMIT} when not given).`,
  },
};
const queryRefs = (...names: string[]) => names.map((n) => ({ $ref: `#/components/parameters/${n}` }));
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

function operations(def: ResourceDef): Record<string, unknown> {
  const schema = ref(def.type);
  const one = json({
    type: 'object',
    properties: { data: schema, included: { type: 'array' }, links: { type: 'object' } },
  });
  const many = json({
    type: 'object',
    properties: {
      data: { type: 'array', items: schema },
      included: { type: 'array' },
      links: { type: 'object' },
      meta: { type: 'object' },
    },
  });
  const body = { required: true, content: json({ type: 'object', required: ['data'], properties: { data: schema } }) };
  const tag = [def.type];
  const collection: Record<string, Schema> = {
    get: {
      operationId: `list:${def.type}`,
      tags: tag,
      summary: `${def.type}: the rows you may read`,
      parameters: queryRefs('filter', 'sort', 'include', 'fields', 'page'),
      responses: { 200: { description: 'A collection document.', content: many }, ...errors(400, 401, 403) },
    },
  };
  if (def.writes?.create)
    collection.post = {
      operationId: `create:${def.type}`,
      tags: tag,
      summary: `Create a ${def.type}`,
      requestBody: body,
      responses: {
        201: { description: 'Created, as you now read it.', content: one },
        ...errors(400, 401, 403, 409, 415, 422),
      },
    };
  const item: Record<string, unknown> = {
    parameters: [idParameter],
    get: {
      operationId: `read:${def.type}`,
      tags: tag,
      summary: `One ${def.type}`,
      parameters: queryRefs('include', 'fields'),
      responses: { 200: { description: 'A document with one resource.', content: one }, ...errors(401, 403, 404) },
    },
  };
  if (def.writes?.update)
    item.patch = {
      operationId: `update:${def.type}`,
      tags: tag,
      summary: `Change a ${def.type}`,
      requestBody: body,
      responses: {
        200: { description: 'Changed, as you now read it.', content: one },
        ...errors(400, 401, 403, 404, 409, 415, 422),
      },
    };
  if (def.writes?.delete)
    item.delete = {
      operationId: `delete:${def.type}`,
      tags: tag,
      summary: `Delete a ${def.type}`,
      responses: { 204: { description: 'Deleted.' }, ...errors(401, 403, 404, 409) },
    };
  return { [`/jsonapi/${def.entity}/${def.bundle}`]: collection, [`/jsonapi/${def.entity}/${def.bundle}/{id}`]: item };
}

export function openApiDocument(registry: Registry): Record<string, unknown> {
  const defs = registry.all();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pecan Handler Portal JSON:API',
      version: '1.0.0',
      description:
        "JSON:API 1.0 in Drupal's dialect. Sign in with the OAuth 2 password grant at /oauth/token and send the access token as a bearer token. See docs/API.md.",
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ oauth2: [] }],
    tags: defs.map((d) => ({ name: d.type })),
    paths: Object.assign({}, ...defs.map(operations)),
    components: {
      schemas: {
        ...Object.fromEntries(defs.map((d) => [d.type, resourceSchema(d)])),
        Error: {
          type: 'object',
          required: ['errors'],
          properties: {
            jsonapi: { type: 'object' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['status', 'title'],
                properties: {
                  status: { type: 'string' },
                  title: { type: 'string' },
                  detail: { type: 'string' },
                  source: {
                    type: 'object',
                    properties: { pointer: { type: 'string' }, parameter: { type: 'string' } },
                  },
                  meta: { type: 'object' },
                },
              },
            },
          },
        },
      },
      parameters: QUERY_PARAMETERS,
      responses: { Error: { description: 'A JSON:API error document.', content: json(ref('Error')) } },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { password: { tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: {} } },
        },
      },
    },
  };
}
