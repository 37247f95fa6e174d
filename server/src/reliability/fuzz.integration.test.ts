import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATORS } from '../jsonapi/query-params.js';
import { allResources } from '../resources/index.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksumDiff, databaseChecksum, type Checksum } from './checksum.js';

/**
 * Property-based fuzzing of the whole app (app.inject on the demo database), as a handler user and as staff:
 * random and malformed Drupal query strings, headers and bodies. Whatever arrives: never a 5xx, every error is a
 * JSON:API error document without a stack trace, the server keeps answering (/healthz after every batch), and a
 * refused write changes nothing (a checksum of every row of every table before and after).
 *
 * `npm test` runs a bounded number of cases; `npm run fuzz` runs many more (FUZZ_RUNS cases per property and user,
 * FUZZ_SEED to replay a run).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 0;
const runs = (fallback: number) => (RUNS > 0 ? RUNS : fallback);
const BATCH = 25;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2_147_483_647;

type User = 'alice' | 'staff';
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT' | 'OPTIONS' | 'HEAD';

interface Ids {
  own: Record<string, string[]>; // ids by type that alice may read (and often write)
  other: Record<string, string[]>; // ids by type of other handlers
  drafts: Array<{ type: string; id: string }>;
  certified: Array<{ type: string; id: string }>;
  all: string[];
}

// ---- Vocabulary: real names mixed with noise, so the fuzzer reaches deep into the engine. ----
const TYPES = allResources.map((d) => d.type);
const BUNDLE_PATHS = allResources.map((d) => `${d.entity}/${d.bundle}`);
const ATTRIBUTES = [...new Set(allResources.flatMap((d) => Object.keys(d.attributes)))];
const RELATIONSHIPS = [...new Set(allResources.flatMap((d) => Object.keys(d.relationships)))];
// Names Object.prototype has among the field names, as often as a real one (issue 32: a 400, never a 500).
const NAMES = [
  ...ATTRIBUTES,
  ...RELATIONSHIPS,
  'id',
  'type',
  'uuid',
  'drupal_internal__nid',
  'meta',
  'attributes',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
];

const weird = fc.constantFrom(
  '',
  ' ',
  '.',
  '..',
  '...',
  '[',
  ']',
  '[]',
  '][',
  '[[',
  '%',
  '%00',
  '%ZZ',
  '\u0000',
  '\u202e',
  '🥜',
  'ñ',
  '日本',
  '\ud800',
  "'",
  '"',
  '`',
  ';--',
  "' or 1=1 --",
  '$1',
  '?',
  '&',
  '=',
  '#',
  '\\',
  '/',
  '*',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9'.repeat(400),
  '-9223372036854775809',
  '0x10',
  '1.5',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '+00:00',
  'a'.repeat(5000),
  'AND',
  'OR',
  'IS NULL',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);
const text = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }), weird);
const segment = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: text });
const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('.'));
const operator = fc.oneof(
  fc.constantFrom(...OPERATORS, 'like', 'in', 'between', 'is null', 'REGEXP', 'GLOB', '!='),
  text,
);
const filterValue = fc.oneof(
  fc.uuid().map(String),
  fc.integer().map(String),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.boolean().map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('0', '1', '2026-10', 'Desirable'),
  text,
);
const key = fc.oneof(fc.constantFrom('a', 'b', 'g', 'h', '0', '@root'), text);

/** One query parameter as [name, value] (both unencoded), in Drupal's syntax or broken versions of it. */
const queryPair: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(path, filterValue).map(([p, v]) => [`filter[${p}]`, v] as [string, string]),
  fc.tuple(path, filterValue).map(([p, v]) => [`filter[${p}][]`, v] as [string, string]),
  fc
    .tuple(
      key,
      fc.constantFrom('path', 'operator', 'value', 'value][', 'memberOf', 'nope'),
      fc.oneof(path, operator, filterValue),
    )
    .map(([k, m, v]) => [`filter[${k}][condition][${m}]`, v] as [string, string]),
  fc
    .tuple(key, fc.constantFrom('conjunction', 'memberOf'), fc.oneof(fc.constantFrom('AND', 'OR', 'or', 'XOR'), key))
    .map(([k, m, v]) => [`filter[${k}][group][${m}]`, v] as [string, string]),
  fc.tuple(path, operator).map(([p, o]) => [`filter[${p}][operator]`, o] as [string, string]),
  fc
    .array(fc.tuple(fc.boolean(), path), { minLength: 1, maxLength: 4 })
    .map((l) => ['sort', l.map(([d, p]) => `${d ? '-' : ''}${p}`).join(',')] as [string, string]),
  fc.array(path, { minLength: 1, maxLength: 4 }).map((l) => ['include', l.join(',')] as [string, string]),
  fc
    .tuple(fc.oneof(fc.constantFrom(...TYPES), text), fc.array(segment, { maxLength: 4 }))
    .map(([t, l]) => [`fields[${t}]`, l.join(',')] as [string, string]),
  fc
    .tuple(
      fc.constantFrom('offset', 'limit', 'size', 'number', ''),
      fc.oneof(fc.integer({ min: -5, max: 600 }).map(String), filterValue),
    )
    .map(([k, v]) => [`page[${k}]`, v] as [string, string]),
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(
          'filter',
          'sort',
          'include',
          'fields',
          'page',
          '_format',
          'filter[',
          'filter]',
          'filter[a]]',
          'page[[limit]]',
          'filter[a][b][c][d][e][f][g][h]',
        ),
        text,
      ),
      text,
    )
    .map(([k, v]) => [k, v] as [string, string]),
);

/** Query pairs over the real fields of one type (and one hop through its relationships), to reach the SQL compiler. */
function typedQueryPair(type: string): fc.Arbitrary<[string, string]> {
  const def = allResources.find((d) => d.type === type)!;
  const hops = Object.entries(def.relationships).flatMap(([name, rel]) => {
    const target = allResources.find((d) => d.type === rel.target)!;
    return [`${name}.id`, ...Object.keys(target.attributes).map((a) => `${name}.${a}`)];
  });
  const real = fc.constantFrom('id', ...Object.keys(def.attributes), ...hops);
  return fc.oneof(
    fc.tuple(real, filterValue).map(([p, v]) => [`filter[${p}]`, v] as [string, string]),
    fc
      .tuple(
        key,
        fc.constantFrom('path', 'operator', 'value', 'value][', 'memberOf'),
        fc.oneof(real, operator, filterValue),
      )
      .map(([k, m, v]) => [`filter[${k}][condition][${m}]`, v] as [string, string]),
    fc.tuple(real, fc.boolean()).map(([p, d]) => ['sort', `${d ? '-' : ''}${p}`] as [string, string]),
    fc.constantFrom(...Object.keys(def.relationships), 'id').map((r) => ['include', r] as [string, string]),
    fc
      .tuple(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 600 }))
      .map(([o, l]) => [`page[${o % 2 ? 'offset' : 'limit'}]`, String(l)] as [string, string]),
  );
}

/** A query string: mostly encoded pairs, sometimes raw (brackets, percent signs, unicode as they come). */
const queryString = (pair: fc.Arbitrary<[string, string]>) =>
  fc
    .tuple(fc.array(pair, { maxLength: 8 }), fc.constantFrom('encoded', 'encoded', 'keys-raw', 'raw'))
    .map(([pairs, mode]) =>
      pairs
        .map(([k, v]) => {
          const enc = (s: string) => {
            try {
              return encodeURIComponent(s);
            } catch {
              return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'));
            }
          };
          if (mode === 'encoded') return `${enc(k)}=${enc(v)}`;
          if (mode === 'keys-raw')
            return `${k.replace(/[^\x21-\x7e]/g, (c) => enc(c)).replace(/[&#]/g, (c) => enc(c))}=${enc(v)}`;
          return `${k}=${v}`.replace(/[^\x21-\x7e]/g, (c) => enc(c)).replace(/#/g, '%23');
        })
        .join('&'),
    );

function resourceUrls(ids: Ids): fc.Arbitrary<string> {
  const anyId = fc.oneof(
    fc.constantFrom(...ids.all),
    fc.uuid().map(String),
    text.map((t) => encodeURIComponent(t.replace(/[\ud800-\udfff]/g, '?'))),
  );
  const bundle = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...BUNDLE_PATHS) },
    { weight: 1, arbitrary: fc.constantFrom('node/nope', 'nope/season', 'node', 'node/file', 'file/file') },
  );
  const field = fc.oneof(fc.constantFrom(...RELATIONSHIPS), fc.constantFrom('nope', 'relationships', ''));
  return fc.oneof(
    { weight: 4, arbitrary: bundle.map((b) => `/jsonapi/${b}`) },
    { weight: 3, arbitrary: fc.tuple(bundle, anyId).map(([b, i]) => `/jsonapi/${b}/${i}`) },
    { weight: 2, arbitrary: fc.tuple(bundle, anyId, field).map(([b, i, f]) => `/jsonapi/${b}/${i}/${f}`) },
    {
      weight: 2,
      arbitrary: fc.tuple(bundle, anyId, field).map(([b, i, f]) => `/jsonapi/${b}/${i}/relationships/${f}`),
    },
    { weight: 1, arbitrary: fc.constant('/jsonapi') },
  );
}

// ---- Bodies. ----
const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 9.999e15, 0.1 + 0.2, -0, 1e-320);
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.integer({ min: 0, max: 10_000_000 }),
  hugeNumber,
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  text,
  filterValue,
  fc.constantFrom(
    '1234.50',
    '0.00',
    '-1.00',
    '12.345',
    '1e3',
    '0.4800',
    '2026-10-10',
    '2026-10',
    '2026-10-10T14:03:00+00:00',
    'Desirable',
    'CA',
    'US',
    'ZZ',
    'active',
    'paid',
  ),
  fc.array(
    fc.record(
      {
        variety: fc.oneof(fc.constantFrom('Desirable', 'Pawnee', 'Native', ''), text),
        pounds: fc.oneof(fc.integer(), hugeNumber, text),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 3 },
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value of the attribute's own kind (in range or not), so a write gets past decoding into the workflows. */
function typedValue(codec: string): fc.Arbitrary<unknown> {
  switch (codec) {
    case 'int':
      return fc.oneof(fc.integer({ min: 0, max: 5_000_000 }), fc.constantFrom(0, 2 ** 53 - 1, 999_999_999_999));
    case 'money':
      return fc
        .tuple(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99 }))
        .map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`);
    case 'ratio':
      return fc.nat({ max: 10_000 }).map((n) => (n / 10_000).toFixed(4));
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'month':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 7));
    case 'bool':
      return fc.boolean();
    case 'json':
      return fc.array(
        fc.record({
          variety: fc.constantFrom('Desirable', 'Pawnee', 'Native', 'Seedling'),
          pounds: fc.nat({ max: 1_000_000 }),
        }),
        { maxLength: 3 },
      );
    default:
      return fc.string({ maxLength: 40 });
  }
}

function relationshipValue(ids: Ids): fc.Arbitrary<unknown> {
  const identifier = fc.record(
    {
      type: fc.oneof(fc.constantFrom(...TYPES), text),
      id: fc.oneof(fc.constantFrom(...ids.all), fc.uuid().map(String), text, fc.integer(), fc.constant(null)),
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    identifier.map((data) => ({ data })),
    fc.array(identifier, { maxLength: 3 }).map((data) => ({ data })),
    fc.constant({ data: null }),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
  );
}

function jsonApiDocument(ids: Ids, type: string, id: string | undefined): fc.Arbitrary<unknown> {
  const def = allResources.find((d) => d.type === type);
  const attributeNames =
    def && Object.keys(def.attributes).length > 0 ? Object.keys(def.attributes) : ATTRIBUTES.slice(0, 20);
  const relationshipNames =
    def && Object.keys(def.relationships).length > 0 ? Object.keys(def.relationships) : RELATIONSHIPS.slice(0, 10);
  const attributes = fc.dictionary(
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...attributeNames) }, { weight: 1, arbitrary: text }),
    fieldValue,
    { maxKeys: 5 },
  );
  const relationships = fc.dictionary(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...relationshipNames) }, { weight: 1, arbitrary: text }),
    relationshipValue(ids),
    { maxKeys: 3 },
  );
  const data = fc.record(
    {
      type: fc.oneof(
        { weight: 6, arbitrary: fc.constant(type) },
        { weight: 1, arbitrary: fc.constantFrom(...TYPES) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
      ),
      id: fc.oneof(
        { weight: 6, arbitrary: fc.constant(id) },
        { weight: 1, arbitrary: fc.constantFrom(...ids.all) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
      ),
      attributes: fc.oneof(
        { weight: 6, arbitrary: attributes },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      ),
      relationships: fc.oneof(
        { weight: 3, arbitrary: relationships },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
      ),
      meta: fc.oneof(
        fc.record({ changed: fc.oneof(text, fc.constant('2020-01-01T00:00:00+00:00'), fc.jsonValue({ maxDepth: 1 })) }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    },
    { requiredKeys: ['type'] },
  );
  // Near-valid: the right type and id, one writable attribute, so writes reach the workflows and sometimes succeed.
  const writable = def ? Object.entries(def.attributes).filter(([, a]) => a.writable) : [];
  const nearValid =
    writable.length === 0
      ? data.map((d) => ({ data: d }))
      : fc
          .constantFrom(...writable)
          .chain(([n, a]) =>
            fc
              .oneof(typedValue(a.codec), fieldValue)
              .map((v) => ({ data: { type, ...(id ? { id } : {}), attributes: { [n]: v } } })),
          );
  return fc.oneof(
    { weight: 6, arbitrary: nearValid },
    { weight: 8, arbitrary: data.map((d) => ({ data: d })) },
    { weight: 1, arbitrary: fc.array(data, { maxLength: 2 }).map((d) => ({ data: d })) },
    {
      weight: 1,
      arbitrary: data.map((d) => ({ data: d, included: [d], jsonapi: { version: '1.1', ext: ['atomic'] } })),
    },
  );
}

/** A body as sent on the wire: JSON:API documents, any JSON, deep nesting, broken text. */
function rawBody(ids: Ids, type: string, id: string | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: jsonApiDocument(ids, type, id).map((d) => JSON.stringify(d)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.integer({ min: 50, max: 100_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 50, max: 50_000 }).map((n) => `${'{"data":'.repeat(n)}null${'}'.repeat(n)}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        'null',
        '"data"',
        '{"data":',
        '{"data":{"type":"node--apc_form_1"}}}',
        '\u0000',
        '\ufeff{}',
        '{"__proto__":{"data":{}}}',
        '{"data":{"constructor":{"prototype":{"x":1}}}}',
      ),
    },
  );
}

// ---- Headers. ----
const asciiText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});
const contentType = fc.oneof(
  fc.constantFrom(
    'application/vnd.api+json',
    'application/json',
    'application/vnd.api+json; charset=utf-8',
    'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"',
    'application/vnd.api+json; version=2',
    'APPLICATION/VND.API+JSON',
    'application/vnd.api+json;;',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/octet-stream',
    '',
    ';',
    'application/',
    '*/*',
  ),
  asciiText,
);
function authorization(tokens: DemoApp['tokens']): fc.Arbitrary<string | undefined> {
  const token = fc.constantFrom(tokens.alice, tokens.staff, tokens.dave);
  return fc.oneof(
    token.map((t) => `Bearer ${t}`),
    token.map((t) => `bearer   ${t}`),
    token.map((t) => `Bearer ${t}x`),
    token.map((t) => `Bearer ${t.slice(0, -1)}`),
    token.map((t) => `Basic ${t}`),
    token.map((t) => `Bearer ${t} ${t}`),
    token.map((t) => `Bearer ${t}==`),
    token.map((t) => t),
    fc.constantFrom(
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Bearer null',
      'Bearer undefined',
      `Bearer ${'A'.repeat(8000)}`,
      'Negotiate abc',
      'Bearer ../../etc/passwd',
    ),
    asciiText.map((s) => `Bearer ${s}`),
    asciiText,
  );
}
const accept = fc.oneof(
  fc.constantFrom(
    undefined,
    'application/vnd.api+json',
    'application/json',
    '*/*',
    'text/html',
    'application/vnd.api+json; ext=foo',
    'application/vnd.api+json;q=0',
    'image/png',
    '',
  ),
  asciiText,
);

// ---- The checks every response must pass. ----
interface Response {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}
interface Case {
  method: string;
  url: string;
  headers: Record<string, string | undefined>;
  payload?: string;
}

function checkResponse(c: Case, r: Response): void {
  const where = `${c.method} ${c.url.slice(0, 300)} -> ${r.statusCode}: ${r.body.slice(0, 500)}`;
  expect(r.statusCode, where).toBeLessThan(500);
  expect(r.body, where).not.toMatch(/at .+\.(ts|js):\d+|node_modules|SqliteError|error: relation|syntax error at/);
  if (r.statusCode >= 400 && c.url.startsWith('/jsonapi') && c.method !== 'HEAD') {
    expect(String(r.headers['content-type']), where).toMatch(/^application\/vnd\.api\+json/);
    const body = JSON.parse(r.body) as { errors?: Array<{ status: string }> };
    expect(Array.isArray(body.errors) && body.errors.length > 0, where).toBe(true);
    for (const e of body.errors!) expect(e.status, where).toBe(String(r.statusCode));
  }
}

describeEachDatabase('fuzzing', (target) => {
  let d: DemoApp;
  let ids: Ids;
  let baseline: Checksum;
  const tally = { reads: 0, headers: 0, writes: 0, accepted: 0, refused: 0, batches: 0 };
  const statuses: Record<string, number> = {};

  const checksum = () => databaseChecksum(d.ctx.db, d.ctx.dialect);
  const send = async (c: Case): Promise<Response> => {
    const headers = Object.fromEntries(Object.entries(c.headers).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const r = await d.app.inject({ method: c.method as 'GET', url: c.url, headers, payload: c.payload });
    checkResponse(c, r);
    statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
    return r;
  };
  const bearer = (user: User) => `Bearer ${d.tokens[user]}`;
  const healthy = async () => {
    tally.batches += 1;
    const r = await d.app.inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
  };

  /** Runs a property in batches of BATCH cases with a /healthz after each batch. */
  const inBatches = async <T>(total: number, arb: fc.Arbitrary<T>, run: (v: T) => Promise<void>) => {
    for (let done = 0, i = 0; done < total; done += BATCH, i++) {
      const numRuns = Math.min(BATCH, total - done);
      await fc.assert(fc.asyncProperty(arb, run), { numRuns, seed: SEED + i, verbose: 1 });
      await healthy();
    }
  };

  /** A write: answered 2xx, or refused with the database exactly as before. */
  const checkedWrite = async (c: Case): Promise<void> => {
    const r = await send(c);
    tally.writes += 1;
    if (process.env.FUZZ_DEBUG)
      console.log(c.method, c.url, c.payload?.slice(0, 200), '->', r.statusCode, r.body.slice(0, 200));
    const after = await checksum();
    if (r.statusCode >= 200 && r.statusCode < 300) {
      tally.accepted += 1;
    } else {
      tally.refused += 1;
      expect(
        checksumDiff(baseline, after),
        `refused write changed data: ${c.method} ${c.url} ${c.payload?.slice(0, 500)} -> ${r.statusCode} ${r.body.slice(0, 300)}`,
      ).toEqual({});
    }
    baseline = after;
  };

  beforeAll(async () => {
    d = await demoApp(target);
    const db = d.ctx.db;
    const own = d.handlers['101'];
    const byType: Ids['own'] = {};
    const other: Ids['other'] = {};
    const drafts: Ids['drafts'] = [];
    const certified: Ids['certified'] = [];
    for (const def of allResources) {
      const rows = (await db.selectFrom(def.table).selectAll().limit(400).execute()) as Array<Record<string, unknown>>;
      for (const r of rows) {
        const mine = r.handler_id === own || r.transferring_handler_id === own || r.id === own;
        (mine ? byType : other)[def.type] ??= [];
        const list = (mine ? byType : other)[def.type];
        if (list.length < 6) list.push(String(r.id));
        if (mine && r.form_status === 'draft') drafts.push({ type: def.type, id: String(r.id) });
        if (mine && r.form_status === 'certified' && certified.filter((c) => c.type === def.type).length < 2)
          certified.push({ type: def.type, id: String(r.id) });
      }
    }
    const all = [...Object.values(byType).flat(), ...Object.values(other).flat()];
    ids = { own: byType, other, drafts, certified, all };
    baseline = await checksum();
  });

  afterAll(async () => {
    console.log(
      `[${target.dialect}] fuzz (seed ${SEED}): ${tally.reads} query cases, ${tally.headers} header cases, ${tally.writes} body cases ` +
        `(${tally.accepted} accepted, ${tally.refused} refused, each refused one checked against a checksum of every row), ` +
        `${tally.batches} /healthz checks; no 5xx; statuses ${JSON.stringify(statuses)}`,
    );
    await d?.close();
  });

  for (const user of ['alice', 'staff'] as const) {
    it(`random query strings as ${user}: never a 5xx, reads change nothing`, async () => {
      const before = await checksum();
      const typed = fc
        .constantFrom(...allResources)
        .chain((def) =>
          fc.tuple(
            fc.constant(`/jsonapi/${def.entity}/${def.bundle}`),
            queryString(
              fc.oneof({ weight: 3, arbitrary: typedQueryPair(def.type) }, { weight: 1, arbitrary: queryPair }),
            ),
          ),
        );
      const arb = fc
        .tuple(
          fc.oneof(fc.tuple(resourceUrls(ids), queryString(queryPair)), typed),
          fc.constantFrom<Method>('GET', 'GET', 'GET', 'HEAD'),
        )
        .map(([[url, query], method]) => [url, query, method] as const);
      await inBatches(runs(150), arb, async ([url, query, method]) => {
        tally.reads += 1;
        await send({
          method,
          url: query ? `${url}?${query}` : url,
          headers: { authorization: bearer(user), accept: 'application/vnd.api+json' },
        });
      });
      expect(checksumDiff(before, await checksum())).toEqual({});
    });
  }

  it('random headers (content type, authorization, accept) on reads and writes: never a 5xx', async () => {
    const draft = ids.drafts[0];
    const bundleOf = (type: string) => type.replace('--', '/');
    const arb = fc.tuple(
      fc.constantFrom<Method>('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'HEAD'),
      fc.oneof(
        fc.constant(`/jsonapi/${bundleOf(draft.type)}/${draft.id}`),
        fc.constant(`/jsonapi/${bundleOf(draft.type)}`),
        fc.constant('/jsonapi/node/season'),
        fc.constant('/oauth/debug?_format=json'),
        fc.constant('/api/council/periods'),
      ),
      contentType,
      authorization(d.tokens),
      accept,
      fc.oneof(
        fc.constant(undefined),
        fc.constant(
          JSON.stringify({
            data: { type: draft.type, id: draft.id, attributes: { field_date_completed: 'not a date' } },
          }),
        ),
        rawBody(ids, draft.type, draft.id),
      ),
    );
    await inBatches(runs(120), arb, async ([method, url, type, auth, acc, payload]) => {
      tally.headers += 1;
      const c: Case = {
        method,
        url,
        headers: { 'content-type': type, authorization: auth, accept: acc },
        payload: method === 'GET' || method === 'HEAD' ? undefined : payload,
      };
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') await send(c);
      else await checkedWrite(c);
    });
  });

  for (const user of ['alice', 'staff'] as const) {
    it(`random bodies as ${user}: never a 5xx, a refused write changes nothing`, async () => {
      const bundleOf = (type: string) => type.replace('--', '/');
      const targets: fc.Arbitrary<{ method: Method; url: string; type: string; id?: string }> = fc.oneof(
        // PATCH of own drafts, own certified forms, others' forms, and anything else by id.
        {
          weight: 4,
          arbitrary: fc.constantFrom(...ids.drafts, ...ids.certified).map((t) => ({
            method: 'PATCH' as const,
            url: `/jsonapi/${bundleOf(t.type)}/${t.id}`,
            type: t.type,
            id: t.id,
          })),
        },
        fc
          .constantFrom(
            ...Object.entries({ ...ids.other, ...ids.own }).flatMap(([type, list]) =>
              list.slice(0, 2).map((id) => ({ type, id })),
            ),
          )
          .map((t) => ({
            method: 'PATCH' as const,
            url: `/jsonapi/${bundleOf(t.type)}/${t.id}`,
            type: t.type,
            id: t.id,
          })),
        // POST to every collection (amendments, sub-records, packet confirmations, forms 4 and 5, reference data).
        fc.constantFrom(...TYPES).map((type) => ({ method: 'POST' as const, url: `/jsonapi/${bundleOf(type)}`, type })),
        // DELETE of sub-records and of anything else.
        fc
          .constantFrom(
            ...Object.entries({ ...ids.own, ...ids.other }).flatMap(([type, list]) =>
              list.slice(0, 2).map((id) => ({ type, id })),
            ),
          )
          .map((t) => ({
            method: 'DELETE' as const,
            url: `/jsonapi/${bundleOf(t.type)}/${t.id}`,
            type: t.type,
            id: t.id,
          })),
        // POST to to-many relationships (package form lists, packet confirmations).
        fc
          .tuple(
            fc.constantFrom(
              ...Object.entries({ ...ids.own, ...ids.other }).flatMap(([type, list]) =>
                list.slice(0, 1).map((id) => ({ type, id })),
              ),
            ),
            fc.constantFrom(...RELATIONSHIPS),
          )
          .map(([t, f]) => ({
            method: 'POST' as const,
            url: `/jsonapi/${bundleOf(t.type)}/${t.id}/relationships/${f}`,
            type: t.type,
          })),
        // The council's own endpoints (plain JSON).
        fc
          .constantFrom(
            '/api/council/periods',
            '/api/council/reports/monthly',
            '/api/council/reports/annual',
            '/api/council/analytics/industry',
            '/api/council/analytics/handlers',
            `/api/council/invoices/${ids.own['node--invoice']?.[0] ?? 'x'}/paid`,
            '/api/council/invoices/nope/paid',
            `/api/council/reports/monthly/${ids.other['node--monthly_position_report']?.[0] ?? 'x'}/publish`,
          )
          .map((url) => ({ method: 'POST' as const, url, type: 'council' })),
      );
      const arb = targets.chain((t) =>
        fc.tuple(
          fc.constant(t),
          t.type === 'council'
            ? fc.oneof(
                fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
                fc
                  .dictionary(
                    fc.constantFrom('period_month', 'season_id', 'paid_date', 'reference', 'publish', 'nope'),
                    fieldValue,
                    { maxKeys: 4 },
                  )
                  .map((v) => JSON.stringify(v)),
              )
            : rawBody(ids, t.type, t.id),
          fc.constantFrom('application/vnd.api+json', 'application/vnd.api+json', 'application/json'),
        ),
      );
      await inBatches(runs(60), arb, async ([t, payload, type]) => {
        await checkedWrite({
          method: t.method,
          url: t.url,
          headers: { authorization: bearer(user), 'content-type': type, accept: 'application/vnd.api+json' },
          payload,
        });
      });
    });
  }

  it('a body over the limit and deeply nested JSON are refused without harm', async () => {
    const draft = ids.drafts[0];
    const url = `/jsonapi/${draft.type.replace('--', '/')}/${draft.id}`;
    for (const payload of [
      `{"data":${'['.repeat(400_000)}${']'.repeat(400_000)}}`,
      'x'.repeat(1024 * 1024 + 1),
      `${'{"a":'.repeat(200_000)}1${'}'.repeat(200_000)}`,
    ]) {
      await checkedWrite({
        method: 'PATCH',
        url,
        headers: { authorization: bearer('alice'), 'content-type': 'application/vnd.api+json' },
        payload,
      });
    }
    await healthy();
  });
});
