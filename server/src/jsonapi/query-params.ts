import qs from 'qs';
import { ApiError, badParameter } from '../lib/errors.js';
import { checkQuerySize } from './limits.js';
import { LANGCODE } from './resource.js';

/**
 * Drupal's JSON:API query syntax parsed into a plain structure. Everything malformed is a 400 naming the
 * parameter; nothing unknown is ignored.
 */
export const OPERATORS = [
  '=',
  '<>',
  '>',
  '>=',
  '<',
  '<=',
  'STARTS_WITH',
  'CONTAINS',
  'ENDS_WITH',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
  'IS NULL',
  'IS NOT NULL',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  kind: 'condition';
  key: string;
  path: string;
  operator: Operator;
  values: string[];
  memberOf: string;
}
export interface Group {
  kind: 'group';
  key: string;
  conjunction: 'AND' | 'OR';
  memberOf: string;
}
export interface FilterTree {
  conjunction: 'AND' | 'OR';
  members: Array<Condition | FilterTree>;
}
export interface SortField {
  path: string;
  descending: boolean;
}
export interface Query {
  filter: FilterTree;
  sort: SortField[];
  include: string[];
  fields: Record<string, string[]>;
  page: { offset: number; limit: number };
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
export const ROOT_GROUP = '@root';
const KNOWN = new Set(['filter', 'sort', 'include', 'fields', 'page', '_format']);

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseQueryString(search: string): Query {
  refusePrototypeNames(search);
  const raw = parseRaw(search);
  for (const key of Object.keys(raw)) {
    if (!KNOWN.has(key)) throw badParameter(key, `Unknown query parameter "${key}".`);
  }
  const query: Query = {
    filter: parseFilter(raw.filter),
    sort: parseSort(raw.sort),
    include: parseList(raw.include, 'include'),
    fields: parseFields(raw.fields),
    page: parsePage(raw.page),
  };
  checkQuerySize(query);
  return query;
}

/** qs would drop parameters beyond its limits, or keep a too deep key as one name, silently: a 400 instead. */
function parseRaw(search: string): Raw {
  try {
    return qs.parse(search, {
      depth: 6,
      strictDepth: true,
      arrayLimit: 500,
      parameterLimit: 2000,
      throwOnLimitExceeded: true,
      allowDots: false,
    }) as Raw;
  } catch (e) {
    if (e instanceof RangeError)
      throw new ApiError(400, 'The query string has too many parameters, or a list or name nested too deep.');
    throw e;
  }
}

/**
 * Names Object.prototype has (`__proto__`, `constructor`, `toString`...) anywhere in a parameter's name, or in a
 * path, sort, include or field list: a 400. qs drops such a key without a word (a filter would silently vanish), and
 * a plain lookup of one in a type's fields finds a function, not a field.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const NAME_LISTS = /^(sort|sort\[.*\]\[path\]|include|fields\[.*\]|filter\[.*\]\[(condition\]\[)?path\])$/;
function refusePrototypeNames(search: string): void {
  for (const pair of search.split('&')) {
    const at = pair.indexOf('=');
    const name = decodePart(at < 0 ? pair : pair.slice(0, at));
    const names = name.split(/[[\].]+/);
    if (NAME_LISTS.test(name)) names.push(...decodePart(at < 0 ? '' : pair.slice(at + 1)).split(/[.,\s-]+/));
    const found = names.find((n) => PROTOTYPE_NAMES.has(n));
    if (found !== undefined) throw badParameter(name, `"${found}" is not a field, type or group name.`);
  }
}

function decodePart(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function parseList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'string') throw badParameter(name, `"${name}" must be a comma-separated list.`);
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw badParameter(name, `"${name}" has an empty entry.`);
  return items;
}

/**
 * `sort=-created,title`, or Drupal's expanded form: `sort[s][path]=created&sort[s][direction]=DESC`, with an
 * optional `sort[s][langcode]` (the portal's content has one language, `en`, the only value taken). The fields
 * sort in the order their keys come.
 */
function parseSort(value: unknown): SortField[] {
  if (value === undefined || typeof value === 'string') {
    return parseList(value, 'sort').map((item) => {
      const descending = item.startsWith('-');
      return { path: descending ? item.slice(1) : item, descending };
    });
  }
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : isObject(value)
      ? Object.entries(value)
      : null;
  if (!entries || entries.length === 0)
    throw badParameter('sort', '"sort" must be a comma-separated list, or sort[name][path] and sort[name][direction].');
  return entries.map(([key, item]) => {
    const param = `sort[${key}]`;
    if (!isObject(item)) throw badParameter(param, `${param} must have a [path] and may have a [direction].`);
    for (const k of Object.keys(item)) {
      if (!['path', 'direction', 'langcode'].includes(k))
        throw badParameter(`${param}[${k}]`, `Unknown member ${param}[${k}]: use path, direction and langcode.`);
    }
    if (typeof item.path !== 'string' || item.path.trim() === '')
      throw badParameter(`${param}[path]`, `${param}[path] is missing.`);
    const direction =
      item.direction === undefined ? 'ASC' : typeof item.direction === 'string' ? item.direction.toUpperCase() : '';
    if (direction !== 'ASC' && direction !== 'DESC')
      throw badParameter(`${param}[direction]`, `${param}[direction] is ASC or DESC.`);
    if (item.langcode !== undefined && item.langcode !== LANGCODE) {
      throw badParameter(
        `${param}[langcode]`,
        `${param}[langcode] can only be "${LANGCODE}": the content has no other language.`,
      );
    }
    return { path: item.path.trim(), descending: direction === 'DESC' };
  });
}

function parseFields(value: unknown): Record<string, string[]> {
  if (value === undefined) return {};
  if (!isObject(value)) throw badParameter('fields', '"fields" must be given per type: fields[node--handler]=title.');
  const out: Record<string, string[]> = {};
  for (const [type, list] of Object.entries(value)) {
    if (typeof list !== 'string')
      throw badParameter(`fields[${type}]`, `fields[${type}] must be a comma-separated list.`);
    out[type] = list === '' ? [] : list.split(',').map((s) => s.trim());
  }
  return out;
}

function parseInteger(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw badParameter(name, `${name} must be a whole number.`);
  const n = Number(value);
  if (n < min || n > max) throw badParameter(name, `${name} must be between ${min} and ${max}.`);
  return n;
}

function parsePage(value: unknown): Query['page'] {
  if (value === undefined) return { offset: 0, limit: DEFAULT_LIMIT };
  if (!isObject(value)) throw badParameter('page', 'Use page[offset] and page[limit].');
  for (const key of Object.keys(value)) {
    if (key !== 'offset' && key !== 'limit')
      throw badParameter(`page[${key}]`, `Unknown paging parameter page[${key}].`);
  }
  return {
    offset: parseInteger(value.offset, 'page[offset]', 0, 10_000_000, 0),
    limit: parseInteger(value.limit, 'page[limit]', 1, MAX_LIMIT, DEFAULT_LIMIT),
  };
}

function parseValues(value: unknown, param: string): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  const list = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : null;
  if (!list || list.some((v) => typeof v !== 'string'))
    throw badParameter(param, `${param} must be a value or a list of values.`);
  return list as string[];
}

function parseOperator(value: unknown, param: string): Operator {
  if (value === undefined) return '=';
  const op = typeof value === 'string' ? value.toUpperCase() : '';
  if (!(OPERATORS as readonly string[]).includes(op))
    throw badParameter(param, `Unknown filter operator "${String(value)}".`);
  return op as Operator;
}

function checkArity(c: Condition, param: string): void {
  const n = c.values.length;
  const fail = (what: string) => {
    throw badParameter(param, `The operator ${c.operator} needs ${what}.`);
  };
  if (c.operator === 'IS NULL' || c.operator === 'IS NOT NULL') {
    if (n !== 0) fail('no value');
    return;
  }
  if (c.operator === 'BETWEEN' || c.operator === 'NOT BETWEEN') {
    if (n !== 2) fail('exactly two values');
    return;
  }
  if (c.operator === 'IN' || c.operator === 'NOT IN') {
    if (n < 1) fail('at least one value');
    return;
  }
  if (n !== 1) fail('exactly one value');
}

function parseCondition(key: string, body: Raw, memberOf: unknown): Condition {
  const param = `filter[${key}]`;
  if (typeof body.path !== 'string' || body.path === '')
    throw badParameter(param, `${param}[condition][path] is missing.`);
  for (const k of Object.keys(body)) {
    if (!['path', 'operator', 'value', 'memberOf'].includes(k))
      throw badParameter(param, `Unknown member ${param}[condition][${k}].`);
  }
  const condition: Condition = {
    kind: 'condition',
    key,
    path: body.path,
    operator: parseOperator(body.operator, `${param}[condition][operator]`),
    values: parseValues(body.value, `${param}[condition][value]`),
    memberOf: parseMemberOf(body.memberOf ?? memberOf, param),
  };
  checkArity(condition, param);
  return condition;
}

function parseMemberOf(value: unknown, param: string): string {
  if (value === undefined) return ROOT_GROUP;
  if (typeof value !== 'string' || value === '') throw badParameter(param, `${param} memberOf must name a group.`);
  return value;
}

function parseEntry(key: string, value: unknown): Condition | Group {
  const param = `filter[${key}]`;
  // The root group has this name: an entry by it would replace the root and drop every condition before it.
  if (key === ROOT_GROUP)
    throw badParameter(param, `"${ROOT_GROUP}" names the root group; give a group or condition another name.`);
  // Shorthand: filter[field_x]=value, filter[field_x][]=a&filter[field_x][]=b
  if (typeof value === 'string' || Array.isArray(value)) {
    const values = parseValues(value, param);
    return {
      kind: 'condition',
      key,
      path: key,
      operator: Array.isArray(value) ? 'IN' : '=',
      values,
      memberOf: ROOT_GROUP,
    };
  }
  if (!isObject(value)) throw badParameter(param, `${param} is malformed.`);
  if (isObject(value.condition)) return parseCondition(key, value.condition, undefined);
  if (isObject(value.group)) {
    const conj = String(value.group.conjunction ?? 'AND').toUpperCase();
    if (conj !== 'AND' && conj !== 'OR')
      throw badParameter(`${param}[group][conjunction]`, 'A group conjunction is AND or OR.');
    return { kind: 'group', key, conjunction: conj, memberOf: parseMemberOf(value.group.memberOf, param) };
  }
  // Shorthand with an operator: filter[field_x][value]=v&filter[field_x][operator]=CONTAINS
  if ('value' in value || 'operator' in value) {
    for (const k of Object.keys(value)) {
      if (!['value', 'operator', 'path'].includes(k)) throw badParameter(param, `Unknown member ${param}[${k}].`);
    }
    const condition: Condition = {
      kind: 'condition',
      key,
      path: typeof value.path === 'string' ? value.path : key,
      operator: parseOperator(value.operator, `${param}[operator]`),
      values: parseValues(value.value, `${param}[value]`),
      memberOf: ROOT_GROUP,
    };
    checkArity(condition, param);
    return condition;
  }
  throw badParameter(param, `${param} is neither a condition nor a group.`);
}

/** Builds the tree of groups; every group must exist and no group may contain itself. */
function parseFilter(value: unknown): FilterTree {
  const root: FilterTree = { conjunction: 'AND', members: [] };
  if (value === undefined) return root;
  if (!isObject(value)) throw badParameter('filter', '"filter" is malformed.');
  const entries = Object.entries(value).map(([key, v]) => parseEntry(key, v));
  const groups = new Map<string, FilterTree>([[ROOT_GROUP, root]]);
  for (const e of entries) if (e.kind === 'group') groups.set(e.key, { conjunction: e.conjunction, members: [] });
  for (const e of entries) {
    const parent = groups.get(e.memberOf);
    if (!parent)
      throw badParameter(`filter[${e.key}]`, `filter[${e.key}] is a member of an unknown group "${e.memberOf}".`);
    parent.members.push(e.kind === 'group' ? groups.get(e.key)! : e);
  }
  assertAcyclic(entries);
  return root;
}

function assertAcyclic(entries: Array<Condition | Group>): void {
  const parentOf = new Map(entries.filter((e) => e.kind === 'group').map((g) => [g.key, g.memberOf]));
  for (const start of parentOf.keys()) {
    const seen = new Set<string>();
    for (let at: string | undefined = start; at && at !== ROOT_GROUP; at = parentOf.get(at)) {
      if (seen.has(at)) throw badParameter(`filter[${start}]`, `The filter group "${start}" contains itself.`);
      seen.add(at);
    }
  }
}
