import { ApiError } from '../lib/errors.js';
import type { Dialect } from '../db/database.js';
import { CodecError, fromApi } from './codecs.js';
import type { ResourceDef, Row, WriteInput } from './resource.js';

type Body = Record<string, unknown>;
const isObject = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

interface FieldError {
  detail: string;
  pointer: string;
}

const unprocessable = (errors: FieldError[]) =>
  ApiError.many(
    422,
    errors.map((e) => ({ detail: e.detail, source: { pointer: e.pointer } })),
  );

/** The `data` member of a write, checked for shape, type and (for PATCH) id. */
export function resourceData(body: unknown, def: ResourceDef, id?: string): Body {
  if (!isObject(body) || !isObject(body.data))
    throw new ApiError(400, 'The body must be a JSON:API document with a "data" object.', {
      source: { pointer: '/data' },
    });
  const data = body.data;
  if (data.type !== def.type)
    throw new ApiError(409, `The resource type must be "${def.type}".`, { source: { pointer: '/data/type' } });
  if (id !== undefined && data.id !== id)
    throw new ApiError(409, 'The id in the body must match the id in the URL.', { source: { pointer: '/data/id' } });
  if (id === undefined && data.id !== undefined && (typeof data.id !== 'string' || !/^[0-9a-f-]{36}$/i.test(data.id))) {
    throw new ApiError(422, 'A client-generated id must be a UUID.', { source: { pointer: '/data/id' } });
  }
  for (const member of ['attributes', 'relationships', 'meta']) {
    if (data[member] !== undefined && !isObject(data[member]))
      throw new ApiError(400, `"${member}" must be an object.`, { source: { pointer: `/data/${member}` } });
  }
  return data;
}

/**
 * Attributes and to-one relationships of a write, decoded to column values. Every problem is reported at once,
 * one 422 error per field with its pointer; nothing is written when there is any.
 */
export function decodeWrite(data: Body, def: ResourceDef, dialect: Dialect): WriteInput {
  const errors: FieldError[] = [];
  const values: Row = {};
  const attributes = (data.attributes ?? {}) as Body;
  for (const [name, value] of Object.entries(attributes)) {
    const pointer = `/data/attributes/${name}`;
    const a = def.attributes[name];
    if (!a) {
      errors.push({ pointer, detail: `${def.type} has no field "${name}".` });
      continue;
    }
    if (!a.writable) {
      errors.push({ pointer, detail: `${name} is computed by the server and cannot be set.` });
      continue;
    }
    if (value === null && !a.nullable) {
      errors.push({ pointer, detail: `${name} cannot be empty.` });
      continue;
    }
    try {
      values[a.column] = fromApi(a.codec, value, dialect);
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      errors.push({ pointer, detail: `${name} ${e.message}.` });
    }
  }
  const relationships: WriteInput['relationships'] = {};
  for (const [name, value] of Object.entries((data.relationships ?? {}) as Body)) {
    const pointer = `/data/relationships/${name}`;
    const rel = def.relationships[name];
    if (!rel) {
      errors.push({ pointer, detail: `${def.type} has no relationship "${name}".` });
      continue;
    }
    if (rel.kind !== 'one' || !rel.writable) {
      errors.push({ pointer, detail: `${name} cannot be set here.` });
      continue;
    }
    const linkage = isObject(value) ? value.data : undefined;
    if (linkage === null) {
      relationships[name] = null;
      values[rel.column] = null;
      continue;
    }
    if (!isObject(linkage) || linkage.type !== rel.target || typeof linkage.id !== 'string') {
      errors.push({
        pointer: `${pointer}/data`,
        detail: `${name} must be {"data": {"type": "${rel.target}", "id": "..."}}.`,
      });
      continue;
    }
    relationships[name] = { type: rel.target, id: linkage.id };
    values[rel.column] = linkage.id;
  }
  if (errors.length > 0 && def.validateAttributes) {
    // One 422 names every invalid field: add the type's own checks for the fields the codecs let through.
    const reported = new Set(errors.map((e) => e.pointer));
    for (const e of def.validateAttributes(attributes)) {
      const pointer = `/data/attributes/${e.field}`;
      if (!reported.has(pointer) && def.attributes[e.field]) {
        reported.add(pointer);
        errors.push({ pointer, detail: e.message });
      }
    }
  }
  if (errors.length > 0) throw unprocessable(errors);
  return { values, attributes, relationships, meta: (data.meta ?? {}) as Record<string, unknown> };
}

/** The body of a relationship write: a list of resource identifiers of the target type. */
export function relationshipIds(body: unknown, target: string): string[] {
  const data = isObject(body) ? body.data : undefined;
  const list = Array.isArray(data) ? data : data === undefined ? null : [data];
  if (!list || list.some((l) => !isObject(l) || l.type !== target || typeof l.id !== 'string')) {
    throw new ApiError(400, `The body must be {"data": [{"type": "${target}", "id": "..."}]}.`, {
      source: { pointer: '/data' },
    });
  }
  return list.map((l) => (l as Body).id as string);
}

export { unprocessable };
