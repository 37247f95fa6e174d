import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/database.js';
import { DOCUMENT_CACHE_HEADER } from '../jsonapi/document-cache.js';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { periodIdOf } from '../test-support/filings-fixture.js';
import { withoutTimes } from '../test-support/pdf.js';
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
    target.dialect === 'postgres' ? name !== 'row-builders' && name !== 'reads-beside-writes' : name !== 'pg-named';

  describe.each(MECHANISM_NAMES)('%s off', (name) => {
    it.runIf(applies(name))('answers the same documents', async () => {
      const mechanisms = { ...ALL_MECHANISMS_ON, [name]: false };
      const database = await openAgain(mechanisms);
      const config = {
        ...d.ctx.config,
        mechanisms,
        documentCacheBytes: mechanisms['document-cache'] ? d.ctx.config.documentCacheBytes : 0,
      };
      const app = await buildApp(
        {
          ...d.ctx,
          db: database.db,
          config,
          pdfThreads: mechanisms['pdf-threads'] ? d.ctx.pdfThreads : undefined,
          writerBusy: database.writerBusy,
        },
        { logger: false },
      );
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
  /**
   * A certification renders its form's PDF and its invoice's inside the write: on threads or not, the stored files
   * are the same (but for pdf-lib's creation and modification times, to the second: `withoutTimes`). SQLite only:
   * the renderer does not depend on the database, and a copy of the data is one call there.
   */
  it.runIf(target.dialect === 'sqlite')('pdf-threads off: a certification stores the same PDFs', async () => {
    const certifiedPdfs = async (threads: boolean): Promise<string[]> => {
      const database = await openAgain({ ...ALL_MECHANISMS_ON, 'pdf-threads': threads });
      const app = await buildApp(
        { ...d.ctx, db: database.db, pdfThreads: threads ? d.ctx.pdfThreads : undefined },
        { logger: false },
      );
      try {
        const form = await database.db
          .selectFrom('apc_form_1')
          .select('id')
          .where('handler_id', '=', d.handlers['101'])
          .where('form_status', '=', 'draft')
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const certified = await api(app, d.tokens.alice, 'PATCH', `/jsonapi/node/apc_form_1/${String(form.id)}`, {
          data: {
            type: 'node--apc_form_1',
            id: form.id,
            attributes: { field_certified: true, field_certification_name: 'Alice Moreno' },
          },
        });
        expect(certified.status, JSON.stringify(certified.body)).toBe(200);
        const files = await database.db
          .selectFrom('files')
          .select(['filename', 'content'])
          .where((eb) =>
            eb.or([
              eb('id', 'in', eb.selectFrom('apc_form_1').select('form_1_pdf_id').where('id', '=', form.id)),
              eb('id', 'in', eb.selectFrom('invoices').select('invoice_pdf_id').where('form_1_id', '=', form.id)),
            ]),
          )
          .orderBy('filename')
          .execute();
        return files.map((f) => `${String(f.filename)}\n${withoutTimes(f.content as Uint8Array)}`);
      } finally {
        await app.close();
        await database.close();
      }
    };
    const onThreads = await certifiedPdfs(true);
    expect(onThreads.map((f) => f.split('\n')[0])).toEqual([
      expect.stringMatching(/^form_1-.*\.pdf$/),
      expect.stringMatching(/^invoice-.*\.pdf$/),
    ]);
    expect(d.ctx.pdfThreads!.alive).toBeGreaterThan(0);
    expect(await certifiedPdfs(false)).toEqual(onThreads);
  });
});
