import { createQueryId, PostgresQueryCompiler, sql, SqliteQueryCompiler, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Viewer } from '../context.js';
import type { Dialect } from '../db/database.js';
import { allResources } from '../resources/index.js';
import type { Predicate } from './resource.js';
import { Compiler } from './compile.js';
import { parseQueryString } from './query-params.js';
import { keptPageStatement, pageStatement } from './read.js';
import { Registry } from './registry.js';
import { accessRule, compiledOnce } from './shape-cache.js';

/**
 * Kept SQL gives each reader exactly the SQL and values that building it anew gives. Rules: every type, both rules
 * (read, full), both dialects, every kind of reader, several aliases, alone and inside a statement with values
 * before it (PostgreSQL numbers its placeholders by position). Whole statements: the reader's rule and a list of ids
 * as values. The second reader of a kind is served from the cache, so its ids and values, not the first's, must be
 * in the values.
 */
const compilers = { sqlite: new SqliteQueryCompiler(), postgres: new PostgresQueryCompiler() };
const compile = (rule: Predicate, dialect: Dialect) =>
  compilers[dialect].compileQuery(rule.toOperationNode(), createQueryId());
const inStatement = (rule: Predicate) =>
  sql`select 1 from files as f where f.id = ${'file-1'} and f.owner_type = ${'node--invoice'} and ${rule}`;

const readers: Array<[string, Viewer]> = [
  ['handler user A', { userId: 'user-a', name: 'a', role: 'handler', handlerId: 'handler-1' }],
  ['handler user B', { userId: 'user-b', name: 'b', role: 'handler', handlerId: 'handler-2' }],
  ['user without company C', { userId: 'user-c', name: 'c', role: 'handler', handlerId: null }],
  ['user without company D', { userId: 'user-d', name: 'd', role: 'handler', handlerId: null }],
  ['staff E', { userId: 'user-e', name: 'e', role: 'staff', handlerId: null }],
  ['staff F', { userId: 'user-f', name: 'f', role: 'staff', handlerId: null }],
];

describe('SQL kept per shape and kind of reader', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`give every reader the SQL and values of its own rule (${dialect})`, () => {
      let compared = 0;
      for (const def of allResources) {
        for (const kind of ['read', 'full'] as const) {
          const build = def.access[kind];
          if (!build) continue;
          for (const alias of ['r1', 'r7']) {
            for (const [, viewer] of readers) {
              const kept = accessRule(kind, def, alias, viewer, dialect);
              const fresh = build(viewer, alias);
              expect(compile(kept, dialect)).toMatchObject(pick(compile(fresh, dialect)));
              expect(compile(inStatement(kept), dialect)).toMatchObject(pick(compile(inStatement(fresh), dialect)));
              compared += 1;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(100);
    });
  }

  it('give whole statements the SQL and values of building them anew, whatever the reader and values', () => {
    const files = allResources.find((d) => d.type === 'file--file')!;
    // A look-up by ids with the reader's rule, as jsonapi/read.ts builds its include statements.
    const lookUp = (viewer: Viewer, ids: readonly string[], value: (i: number) => string) =>
      sql`select r3.id from files as r3 where r3.id in (${sql.join(ids.map((_, i) => value(i)))}) and ${files.access.read(viewer, 'r3')}`;
    for (const dialect of ['sqlite', 'postgres'] as const) {
      for (const [, viewer] of readers) {
        for (const ids of [['f-1', 'f-2'], ['f-3', 'f-4'], ['f-5']]) {
          const kept = compiledOnce(dialect, true, `test|files|${ids.length}`, viewer, ids, (reader, slot) =>
            lookUp(reader, ids, slot),
          );
          const fresh = compile(
            lookUp(viewer, ids, (i) => ids[i]),
            dialect,
          );
          expect(pick(kept)).toEqual(pick(fresh));
        }
      }
    }
  });

  it("puts each reader's own ids in, never another's", () => {
    const invoice = allResources.find((d) => d.type === 'node--invoice')!;
    const [[, a], [, b]] = readers;
    expect(compile(accessRule('read', invoice, 'r1', a, 'sqlite'), 'sqlite').parameters).toEqual(['handler-1']);
    expect(compile(accessRule('read', invoice, 'r1', b, 'sqlite'), 'sqlite').parameters).toEqual(['handler-2']);
    const user = allResources.find((d) => d.type === 'user--user')!;
    expect(compile(accessRule('full', user, 'r2', b, 'postgres'), 'postgres').parameters).toEqual(['user-b']);
  });
});

describe('page statements kept per shape', () => {
  const registry = new Registry(allResources);
  const compile = (statement: RawBuilder<unknown>, dialect: Dialect) =>
    compilers[dialect].compileQuery(statement.toOperationNode(), createQueryId());
  // Per shape, queries that differ in their values only: through relationships (EXISTS with the target's rule), text
  // matches (the value becomes a LIKE pattern), lists, ranges, booleans, groups, a sort through a relationship.
  const shapes: Array<[string, string[]]> = [
    [
      'node--reporting_forms_package',
      ['h-1', 'h-2'].map(
        (h) =>
          `filter[field_handler.id]=${h}&filter[field_reporting_period.field_season.field_current_season]=1&sort=-field_reporting_period.field_due_date&include=field_form_1&page[limit]=50`,
      ),
    ],
    [
      'node--handler',
      ['Pecan', '100%_off'].map(
        (v) =>
          `filter[t][condition][path]=title&filter[t][condition][operator]=CONTAINS&filter[t][condition][value]=${encodeURIComponent(v)}&filter[field_show_in_handler_directory]=1&sort=title`,
      ),
    ],
    [
      'node--invoice',
      [
        ['open', 'paid'],
        ['paid', 'void'],
      ].map(
        ([x, y]) =>
          `filter[s][condition][path]=field_invoice_status&filter[s][condition][operator]=IN&filter[s][condition][value][]=${x}&filter[s][condition][value][]=${y}&fields[node--invoice]=field_amount_due`,
      ),
    ],
    [
      'node--invoice',
      [
        ['2025-01-01', '2025-12-31'],
        ['2026-01-01', '2026-06-30'],
      ].map(
        ([x, y]) =>
          `filter[g][group][conjunction]=OR&filter[d][condition][path]=field_due_date&filter[d][condition][operator]=BETWEEN&filter[d][condition][value][]=${x}&filter[d][condition][value][]=${y}&filter[d][condition][memberOf]=g&filter[n][condition][path]=field_amount_due&filter[n][condition][operator]=>&filter[n][condition][value]=10&filter[n][condition][memberOf]=g&page[offset]=50`,
      ),
    ],
  ];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    it(`give every reader and every value the statement built anew (${dialect})`, () => {
      let compared = 0;
      for (const [type, queries] of shapes) {
        const def = registry.get(type);
        for (const [, viewer] of readers) {
          for (const search of queries) {
            const query = parseQueryString(search);
            const kept = keptPageStatement(new Compiler(registry, viewer, dialect), def, query);
            const fresh = compile(pageStatement(new Compiler(registry, viewer, dialect), def, query), dialect);
            expect(pick(kept)).toEqual(pick(fresh));
            compared += 1;
          }
        }
      }
      expect(compared).toBe(shapes.length * readers.length * 2);
    });
  }

  it("checks every request's values, though the statement is kept", () => {
    const def = registry.get('node--invoice');
    const compiler = new Compiler(registry, readers[0][1], 'sqlite');
    keptPageStatement(compiler, def, parseQueryString('filter[field_amount_due]=10'));
    expect(() => keptPageStatement(compiler, def, parseQueryString('filter[field_amount_due]=ten'))).toThrow(/"ten"/);
  });
});

const pick = (c: { sql: string; parameters: readonly unknown[] }) => ({ sql: c.sql, parameters: c.parameters });
