import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Figure } from './common.js';
import {
  renderHandlerAnalyticsWorkbook,
  type HandlerAnalyticsMonth,
  type HandlerMetric,
} from './handler-analytics-xlsx.js';
import { renderIndustryAnalyticsWorkbook, type IndustryMonth } from './industry-analytics-xlsx.js';

async function load(buffer: Buffer, sample: string): Promise<ExcelJS.Workbook> {
  if (process.env.RENDER_SAMPLES_DIR) {
    mkdirSync(process.env.RENDER_SAMPLES_DIR, { recursive: true });
    writeFileSync(join(process.env.RENDER_SAMPLES_DIR, `${sample}.xlsx`), buffer);
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

const MONTHS = [
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-05',
  '2026-06',
  '2026-07',
  '2026-08',
];
const W: Figure = { value: null, withheld: true };

function industryMonth(month: string, i: number): IndustryMonth {
  return {
    month,
    reportingHandlers: 12,
    receipts: { improved: 1_000_000 * (i + 1), native: 200_000, substandard: i === 3 ? W : 10_000 },
    shipments: { inshell: 500_000, shelled: 300_000 + i, interhandler: 50_000 },
    inventory: {
      inshell: 9_000_000 - i * 100_000,
      shelled: 2_000_000,
      committedDomestic: 700_000,
      committedExport: 300_000,
    },
    exports: [
      { country: 'MX', inshell: 100_000, shelled: 20_000, substandard: 0 },
      { country: 'CN', inshell: 250_000, shelled: 5_000, substandard: 1_000 },
    ],
  };
}

describe('renderIndustryAnalyticsWorkbook', () => {
  it('writes a sheet per topic with SUM formulas, their results, frozen headers and withheld cells', async () => {
    const workbook = await load(
      await renderIndustryAnalyticsWorkbook({
        season: { title: '2025-2026' },
        months: MONTHS.map(industryMonth),
        generatedAt: '2026-10-01T12:00:00+00:00',
      }),
      'industry-analytics',
    );
    expect(workbook.worksheets.map((s) => s.name)).toEqual([
      'Receipts',
      'Shipments',
      'Inventory',
      'Exports by country',
      'Notes',
    ]);
    const receipts = workbook.getWorksheet('Receipts')!;
    expect(receipts.getCell('A1').value).toBe('Month');
    expect(receipts.getCell('A2').value).toBe('September 2025');
    expect(receipts.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const total = receipts.getCell('C14');
    expect(total.formula).toBe('SUM(C2:C13)');
    expect(total.result).toBe(78_000_000);
    expect(total.numFmt).toBe('#,##0');
    expect(receipts.getCell('D14').result).toBe(2_400_000);
    // December's substandard figure is withheld, and so are the totals it is part of
    expect(receipts.getCell('E5').value).toBe('Withheld');
    expect(receipts.getCell('E14').value).toBe('Withheld');
    expect(receipts.getCell('F5').value).toBe('Withheld');
    expect(receipts.getCell('F2').formula).toBe('SUM(C2:E2)');
    expect(receipts.getCell('F2').result).toBe(1_210_000);
    const exportsSheet = workbook.getWorksheet('Exports by country')!;
    expect(exportsSheet.getCell('B2').value).toBe('CN');
    expect(exportsSheet.getCell('C26').formula).toBe('SUM(C2:C25)');
    expect(exportsSheet.getCell('C26').result).toBe(4_200_000);
    expect(workbook.getWorksheet('Inventory')!.rowCount).toBe(13);
    const notes = workbook.getWorksheet('Notes')!.getColumn(2).values.join(' ');
    expect(notes).toContain('fewer than three');
  });
});

function handlerMonth(month: string, i: number): HandlerAnalyticsMonth {
  const own = (n: number): number => n;
  const metrics: HandlerMetric[] = [
    'receiptsImproved',
    'receiptsNative',
    'receiptsSubstandard',
    'shipmentsInshell',
    'shipmentsShelled',
    'inventoryInshell',
    'inventoryShelled',
    'exportsInshell',
    'exportsShelled',
  ];
  const handler = Object.fromEntries(metrics.map((m) => [m, own(10_000 + i)])) as Record<HandlerMetric, number | null>;
  const industry = Object.fromEntries(metrics.map((m) => [m, 100_000])) as Record<HandlerMetric, Figure>;
  if (i === 5) industry.receiptsNative = W;
  if (i === 0) handler.receiptsSubstandard = null;
  return { month, handler, industry };
}

describe('renderHandlerAnalyticsWorkbook', () => {
  it('puts the handler beside the industry with its share as a formula', async () => {
    const workbook = await load(
      await renderHandlerAnalyticsWorkbook({
        handler: { name: 'Riverbend Pecan Co.', number: '101' },
        season: { title: '2025-2026' },
        months: MONTHS.map(handlerMonth),
      }),
      'handler-analytics',
    );
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Receipts', 'Shipments', 'Inventory', 'Exports', 'Notes']);
    const receipts = workbook.getWorksheet('Receipts')!;
    expect(receipts.getCell('B1').value).toBe('Improved receipts (lb inshell)');
    expect(receipts.getCell('B2').value).toBe('Yours');
    expect(receipts.getCell('A3').value).toBe('September 2025');
    expect(receipts.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    expect(receipts.getCell('D3').formula).toBe('IF(C3>0,B3/C3,"")');
    expect(receipts.getCell('D3').result).toBeCloseTo(0.1);
    expect(receipts.getCell('D3').numFmt).toBe('0.0%');
    expect(receipts.getCell('B15').formula).toBe('SUM(B3:B14)');
    expect(receipts.getCell('B15').result).toBe(120_066);
    expect(receipts.getCell('D15').formula).toBe('IF(C15>0,B15/C15,"")');
    expect(receipts.getCell('D15').result).toBeCloseTo(120_066 / 1_200_000);
    // the industry's native receipts for February are withheld: so are the share and the season total
    expect(receipts.getCell('F8').value).toBe('Withheld');
    expect(receipts.getCell('G8').value).toBe('Withheld');
    expect(receipts.getCell('F15').value).toBe('Withheld');
    expect(receipts.getCell('E15').result).toBe(120_066);
    expect(workbook.getWorksheet('Inventory')!.rowCount).toBe(14); // no season total for month-end positions
  });
});
