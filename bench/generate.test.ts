import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../server/src/db/database.js';
import { receivingHandlers } from '../server/src/demo/filings.js';
import { describeEachDatabase, type TestDatabase } from '../server/src/test-support/databases.js';
import { generate, type Options } from './generate.js';
import { formatSeconds, progressLine } from './lib.js';

/**
 * The data generator files several handlers at once in one month's transaction (--concurrency). What it writes must
 * be what filing one at a time writes: every invoice with the same number and amount, every certified version with
 * its PDF, nothing twice.
 */
describeEachDatabase('bench:data, several filings at once', (target) => {
  const places: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of places) await drop();
  });

  /** Generates 5 handlers x 2 seasons at the concurrency given, and reads back what a run must agree on. */
  async function generated(concurrency: number): Promise<Written> {
    const place = await newPlace(target);
    places.push(place.drop);
    const { filings } = await generate({ ...place.options, handlers: 5, seasons: 2, force: true, concurrency });
    expect(filings).toBe(5 * 14);
    return read(place.options);
  }

  it('writes what filing one at a time writes', async () => {
    const one = await generated(1);
    const several = await generated(4);
    expect(several).toEqual(one);
    // Each handler: one invoice a filed month, none twice (a receiver's invoice made by its sender as well would be).
    expect(new Set(several.invoices.map((i) => i.number)).size).toBe(several.invoices.length);
    expect(several.invoices.filter((i) => !i.number.includes('-A'))).toHaveLength(5 * 14);
    expect(several.certified).toMatchObject({ apc_form_1: expect.any(Number), apc_form_2: 70, apc_form_3: 70 });
    expect(several.certified.apc_form_5).toBe(5);
    expect(several.badFiles).toEqual([]);
    // Receivers file first, one at a time, so that no two filings settle one receiver's invoice at once: that holds
    // only while every handler a filing ships to is one that receivingHandlers names.
    expect(several.shippedTo.length).toBeGreaterThan(0);
    expect(several.shippedTo.filter((n) => !several.receivers.includes(n))).toEqual([]);
  }, 240_000);
});

describe("the generator's progress line", () => {
  it('rounds before it splits, so a minute never shows 60 seconds', () => {
    expect(formatSeconds(42.4)).toBe('42s');
    expect(formatSeconds(59.6)).toBe('1m00s');
    expect(formatSeconds(299.6)).toBe('5m00s');
    expect(formatSeconds(3599.7)).toBe('1h00m');
    expect(formatSeconds(3 * 3600 + 59 * 60 + 40)).toBe('4h00m');
  });

  it('shows the share done and the time left at the rate so far', () => {
    expect(progressLine(250, 1000, 60_000, 'filings 2026-02', 10)).toBe(
      '[###-------]  25% 250/1000 1m00s elapsed, ~3m00s left  filings 2026-02',
    );
  });
});

interface Written {
  invoices: Array<{ number: string; cents: number; status: string; due: string }>;
  certified: Record<string, number>;
  /** How many files each kind of owner has, by type. */
  files: Record<string, number>;
  /** Files whose content is not a PDF or whose sha256 is not its content's. */
  badFiles: string[];
  /** Numbers of the handlers some form 1 ships to, and of those the generator files first. */
  shippedTo: string[];
  receivers: string[];
}

async function read(o: Pick<Options, 'database' | 'schema'>): Promise<Written> {
  const database = openDatabase({ url: o.database, pgSchema: o.schema });
  try {
    const db = database.db;
    const invoices = await db
      .selectFrom('invoices')
      .select(['invoice_number', 'amount_due_cents', 'invoice_status', 'due_date'])
      .orderBy('invoice_number')
      .execute();
    const certified: Record<string, number> = {};
    for (const table of ['apc_form_1', 'apc_form_2', 'apc_form_3', 'apc_form_5']) {
      const rows = await db.selectFrom(table).select('id').where('form_status', '=', 'certified').execute();
      certified[table] = rows.length;
    }
    const files = await db.selectFrom('files').select(['id', 'owner_type', 'filemime', 'sha256', 'content']).execute();
    const badFiles = files
      .filter((f) => {
        const content = Buffer.from(f.content as Uint8Array);
        const pdf = f.filemime === 'application/pdf';
        return (
          (pdf && content.subarray(0, 5).toString() !== '%PDF-') ||
          createHash('sha256').update(content).digest('hex') !== String(f.sha256)
        );
      })
      .map((f) => String(f.id));
    const numbers = new Map(
      (await db.selectFrom('handlers').select(['id', 'handler_number']).execute()).map((h) => [
        String(h.id),
        String(h.handler_number),
      ]),
    );
    const lines = await db.selectFrom('apc_form_1').select('interhandler_shipments').execute();
    const shippedTo = lines.flatMap((f) =>
      (JSON.parse(String(f.interhandler_shipments)) as Array<{ receiving_handler: string }>).map((l) =>
        numbers.get(l.receiving_handler)!,
      ),
    );
    const receivers = [...(await receivingHandlers(database))].map((id) => numbers.get(id)!);
    return {
      shippedTo: [...new Set(shippedTo)].sort(),
      receivers: receivers.sort(),
      invoices: invoices.map((i) => ({
        number: String(i.invoice_number),
        cents: Number(i.amount_due_cents),
        status: String(i.invoice_status),
        due: String(i.due_date),
      })),
      certified,
      files: countBy(files.map((f) => `${String(f.owner_type)} ${String(f.filemime)}`)),
      badFiles,
    };
  } finally {
    await database.close();
  }
}

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** A fresh SQLite file or PostgreSQL schema to generate into, and how to remove it. */
async function newPlace(
  target: TestDatabase,
): Promise<{ options: Pick<Options, 'database' | 'schema'>; drop(): Promise<void> }> {
  if (target.dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
    return {
      options: { database: `sqlite:${join(dir, 'data.sqlite')}` },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `bench_t_${randomBytes(5).toString('hex')}`;
  return {
    options: { database: target.url, schema },
    drop: async () => {
      const admin = new pg.Client({ connectionString: target.url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
  };
}
