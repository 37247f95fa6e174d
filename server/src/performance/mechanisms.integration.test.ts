import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/database.js';
import { DOCUMENT_CACHE_HEADER } from '../jsonapi/document-cache.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { periodIdOf } from '../test-support/filings-fixture.js';
import { ALL_MECHANISMS_ON, MECHANISM_NAMES, type Mechanisms, type ServerMechanism } from './mechanisms.js';

/**
 * Each mechanism is a faster way to the same answer: with any one of them off (PORTAL_MECHANISMS_OFF) the reads give
 * the very same documents as with all on. A second app on the same data (a copy of the SQLite database, the same
 * PostgreSQL schema) with one mechanism off answers the same reads, twice each (a kept document the second time).
 */
const reads = (handlerId: string, periodId: string): Array<{ who: 'alice' | 'staff'; url: string }> => [
  { who: 'alice', url: '/jsonapi/node/invoice?include=field_invoice_pdf&page%5Blimit%5D=200' },
  {
    who: 'alice',
    url: '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=1&include=field_form_1',
  },
  { who: 'alice', url: `/jsonapi/node/handler/${handlerId}` },
  { who: 'alice', url: '/jsonapi/user/user?filter[name]=alice' },
  { who: 'staff', url: '/jsonapi/node/handler?sort=title' },
  { who: 'staff', url: '/jsonapi/user/user?filter[n][path]=name&filter[n][operator]=STARTS_WITH&filter[n][value]=a' },
  { who: 'staff', url: `/api/council/board?period_id=${periodId}` },
];

describeEachDatabase('performance mechanisms switched off', (target) => {
  let d: DemoApp;
  let expected: string[];
  let periodId: string;
  const answers = async (app: FastifyInstance): Promise<string[]> => {
    const bodies: string[] = [];
    for (const read of reads(d.handlers['101'], periodId)) {
      for (let time = 0; time < 2; time += 1) {
        const r = await api(app, d.tokens[read.who], 'GET', read.url);
        expect(r.status, read.url).toBe(200);
        bodies.push(r.text);
      }
    }
    return bodies;
  };

  beforeAll(async () => {
    d = await demoApp(target);
    periodId = await periodIdOf(d, '2026-10');
    expected = await answers(d.app);
  });
  afterAll(async () => d?.close());

  /** The same data, opened again with `mechanisms`: a copy of the SQLite database, or the same PostgreSQL schema. */
  const openAgain = async (mechanisms: Mechanisms): Promise<Database> => {
    if (target.dialect === 'sqlite')
      return openDatabase({ url: target.url, sqliteImage: d.ctx.serialize!(), mechanisms });
    const schema = (await d.ctx.db.selectNoFrom((eb) => eb.fn<string>('current_schema').as('s')).executeTakeFirst())!.s;
    return openDatabase({ url: target.url, pgSchema: schema, poolSize: 2, mechanisms });
  };

  const applies = (name: ServerMechanism) =>
    target.dialect === 'postgres' ? name !== 'row-builders' : name !== 'pg-named';

  describe.each(MECHANISM_NAMES)('%s off', (name) => {
    it.runIf(applies(name))('answers the same documents', async () => {
      const mechanisms = { ...ALL_MECHANISMS_ON, [name]: false };
      const database = await openAgain(mechanisms);
      const config = {
        ...d.ctx.config,
        mechanisms,
        documentCacheBytes: mechanisms['document-cache'] ? d.ctx.config.documentCacheBytes : 0,
      };
      const app = await buildApp({ ...d.ctx, db: database.db, config }, { logger: false });
      try {
        const bodies = await answers(app);
        expect(bodies).toEqual(expected);
        const again = await api(app, d.tokens.alice, 'GET', reads(d.handlers['101'], periodId)[0].url);
        expect(again.headers[DOCUMENT_CACHE_HEADER]).toBe(name === 'document-cache' ? undefined : 'HIT');
      } finally {
        await app.close();
        await database.close();
      }
    });
  });
});
