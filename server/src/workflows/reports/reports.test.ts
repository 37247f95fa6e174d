import ExcelJS from 'exceljs';
import { pdfText } from '../../test-support/pdf.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countQueries } from '../../db/database.js';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../../test-support/databases.js';
import { loadRow } from '../common.js';
import { FORM_1_METRICS, monthlyFormTotalsByMonth } from './aggregates.js';
import { generateAllHandlerAnalytics, generateHandlerAnalytics, generateIndustryAnalytics } from './analytics.js';
import {
  generateAnnualPositionReport,
  generateMonthlyPositionReport,
  monthlyPositionFigures,
  publishMonthlyPositionReport,
} from './position-reports.js';
import { seedReportingData, TRANSFER_RECEIVER, type Fixture } from '../../test-support/reports-fixture.js';

async function fileContent(ctx: TestContext, fileId: unknown): Promise<Buffer> {
  const row = await ctx.db
    .selectFrom('files')
    .select(['content', 'owner_type', 'owner_id'])
    .where('id', '=', String(fileId))
    .executeTakeFirstOrThrow();
  return Buffer.from(row.content as Uint8Array);
}

async function workbook(ctx: TestContext, fileId: unknown): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await fileContent(ctx, fileId)) as unknown as ArrayBuffer);
  return wb;
}

describeEachDatabase('position reports and analytics', (target) => {
  let ctx: TestContext;
  let f: Fixture;
  beforeAll(async () => {
    ctx = await createTestContext(target, { clock: fixedClock('2025-11-20T12:00:00+00:00') });
    f = await seedReportingData(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("sums only current certified versions, with each figure's contributing handlers", async () => {
    const sep = await monthlyPositionFigures(ctx.db, '2025-09');
    expect(sep.reportingHandlers).toBe(3); // 104's September form is a draft
    const s = sep.form1.period.figures;
    expect(s.receipts_improved).toEqual({ value: 1500 + 2000 + 3000, handlerCount: 3 });
    expect(s.receipts_native).toEqual({ value: 200 + 300 + 100, handlerCount: 3 });
    expect(s.receipts_substandard).toEqual({ value: 50 + 70, handlerCount: 2 });
    expect(s.shipments_inshell).toEqual({ value: 1200, handlerCount: 3 });
    expect(s.shipments_shelled).toEqual({ value: 150, handlerCount: 2 });
    expect(s.interhandler_shipped).toEqual({ value: 40, handlerCount: 1 });
    expect(s.interhandler_received).toEqual({ value: 40, handlerCount: 1 });
    expect(s.inventory_inshell).toEqual({ value: 4500, handlerCount: 3 });
    expect(s.inventory_shelled).toEqual({ value: 300, handlerCount: 2 });
    expect(s.committed_domestic).toEqual({ value: 300, handlerCount: 2 });
    expect(s.committed_export).toEqual({ value: 50, handlerCount: 1 });
    const mx = sep.exports.period.find((c) => c.country === 'MX')!;
    expect(mx.figures.inshell_lb).toEqual({ value: 1750, handlerCount: 3 });
    expect(mx.figures.shelled_lb).toEqual({ value: 100, handlerCount: 1 });
    expect(sep.exports.period.find((c) => c.country === 'CN')!.figures.inshell_lb).toEqual({
      value: 500,
      handlerCount: 2,
    });

    const oct = await monthlyPositionFigures(ctx.db, '2025-10');
    expect(oct.reportingHandlers).toBe(4);
    // 101's amendment (600) counts, its superseded first version (100) does not
    expect(oct.form1.period.figures.receipts_improved).toEqual({ value: 600 + 200 + 300 + 400, handlerCount: 4 });
    expect(oct.form1.period.figures.receipts_native).toEqual({ value: 60, handlerCount: 3 });
    expect(oct.form1.period.figures.receipts_substandard).toEqual({ value: 0, handlerCount: 0 });
    expect(oct.form1.seasonToDate.figures.receipts_improved).toEqual({ value: 6500 + 1500, handlerCount: 4 });
    expect(oct.form1.seasonToDate.figures.receipts_substandard).toEqual({ value: 120, handlerCount: 2 });
    expect((await loadRow(ctx.db, 'apc_form_1', f.octH1.original)).form_status).toBe('superseded');
  });

  it('aggregates a whole season per month in one query', async () => {
    const { result, queries } = await countQueries(() =>
      monthlyFormTotalsByMonth(ctx.db, 'apc_form_1', FORM_1_METRICS, { months: ['2025-09', '2025-10', '2025-11'] }),
    );
    expect(queries).toBe(1);
    expect([...result.keys()]).toEqual(['2025-09', '2025-10']);
    expect(result.get('2025-10')!.figures.receipts_improved.value).toBe(1500);
  });

  it('renders the monthly report with withheld figures and keeps regenerating idempotent', async () => {
    const first = await generateMonthlyPositionReport(f.staff, '2025-09');
    expect(first).toMatchObject({ created: true, handlersCount: 3, publishToPortal: false });
    const text = await pdfText(await fileContent(ctx, first.fileId));
    for (const expected of [
      'Pecan Industry Position Report',
      'September 2025',
      '2025-2026',
      '6,500',
      '4,500',
      'Mexico (MX)',
      '1,750',
      'fewer than three',
    ])
      expect(text).toContain(expected);
    // substandard receipts came from two handlers only: withheld, month and season to date alike
    expect(text).toMatch(/Substandard\s+lb inshell\s+Withheld\s+Withheld/);
    expect(text).toMatch(/China \(CN\)\s+Withheld/);
    // and the total US-grown receipts, which would reveal it, too
    expect(text).not.toContain('7,220');
    expect(text).not.toContain('120');

    await publishMonthlyPositionReport(f.staff, first.id, true);
    const second = await generateMonthlyPositionReport(f.staff, '2025-09');
    expect(second.id).toBe(first.id);
    expect(second.created).toBe(false);
    expect(second.fileId).not.toBe(first.fileId);
    expect(second.publishToPortal).toBe(true);
    const row = await loadRow(ctx.db, 'monthly_position_reports', first.id);
    expect(row.position_report_pdf_id).toBe(second.fileId);
    expect(Number(row.handlers_count)).toBe(3);
    // Publishing froze the figures and rendered the report from them: a third file between the two generations.
    const files = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('owner_type', '=', 'node--monthly_position_report')
      .where('owner_id', '=', first.id)
      .execute();
    expect(files).toHaveLength(3);
    expect(files.map((x) => x.id)).toEqual(expect.arrayContaining([first.fileId, second.fileId]));
    const count = await ctx.db
      .selectFrom('monthly_position_reports')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);

    const oct = await pdfText(await fileContent(ctx, (await generateMonthlyPositionReport(f.staff, '2025-10')).fileId));
    expect(oct).toContain('October 2025');
    // 1,500 for the month (the superseded October version would make it 1,600), 8,000 season to date
    expect(oct).toMatch(/Improved\s+lb inshell\s+1,500\s+8,000/);
  });

  it('renders the annual report from the season and its forms 5', async () => {
    const r = await generateAnnualPositionReport(f.staff, f.seasonId);
    expect(r.handlersCount).toBe(4);
    const text = await pdfText(await fileContent(ctx, r.fileId));
    for (const expected of ['2025-2026', '8,000', '660', 'Year-end inventory as of August 31', '6,000', 'Withheld'])
      expect(text).toContain(expected);
    expect(text).toMatch(/Inshell inventory, native \/ seedling\s+lb inshell\s+Withheld/);
    const again = await generateAnnualPositionReport(f.staff, f.seasonId);
    expect(again.id).toBe(r.id);
  });

  it('writes the industry workbook per month with withheld cells', async () => {
    // The workbook shows published months only: October's report is published first.
    await publishMonthlyPositionReport(f.staff, (await generateMonthlyPositionReport(f.staff, '2025-10')).id, true);
    const r = await generateIndustryAnalytics(f.staff, f.seasonId);
    expect(r.publishedDate).toBe('2025-11-20');
    expect((await loadRow(ctx.db, 'industry_analytics', r.id)).published_date).toBe('2025-11-20');
    const wb = await workbook(ctx, r.fileId);
    const receipts = wb.getWorksheet('Receipts')!;
    expect(receipts.getCell('A2').value).toBe('September 2025');
    expect(receipts.getCell('B2').value).toBe(3);
    expect(receipts.getCell('C2').value).toBe(6500);
    expect(receipts.getCell('D2').value).toBe(600);
    expect(receipts.getCell('E2').value).toBe('Withheld');
    expect(receipts.getCell('A3').value).toBe('October 2025');
    expect(receipts.getCell('C3').value).toBe(1500);
    expect(receipts.getCell('C4').result).toBe(8000); // season total formula
    expect(receipts.getCell('E4').value).toBe('Withheld');
    const exportsSheet = wb.getWorksheet('Exports by country')!;
    const rows = exportsSheet
      .getSheetValues()
      .slice(2)
      .map((v) => (v as unknown[]).slice(1, 4));
    expect(rows).toContainEqual(['September 2025', 'MX', 1750]);
    expect(rows).toContainEqual(['September 2025', 'CN', 'Withheld']);
  });

  it("puts a handler's own figures beside the industry's, which obey the three-handler rule", async () => {
    const r = await generateHandlerAnalytics(f.staff, 'h1', f.seasonId);
    const wb = await workbook(ctx, r.fileId);
    const receipts = wb.getWorksheet('Receipts')!;
    expect(receipts.getCell('A3').value).toBe('September 2025');
    expect(receipts.getCell('B3').value).toBe(1500); // own improved
    expect(receipts.getCell('C3').value).toBe(6500); // industry improved
    expect(receipts.getCell('H3').value).toBe(50); // own substandard
    expect(receipts.getCell('I3').value).toBe('Withheld'); // industry substandard: two handlers
    expect(receipts.getCell('B4').value).toBe(600); // October, amended
    const exportsSheet = wb.getWorksheet('Exports')!;
    expect(exportsSheet.getCell('B3').value).toBe(1300);
    // The industry's inshell exports (1,750 to Mexico + 500 to China) would give China's two handlers' 500 away
    // less Mexico's published 1,750: withheld as a complement.
    expect(exportsSheet.getCell('C3').value).toBe('Withheld');
    expect(exportsSheet.getCell('F3').value).toBe('Withheld'); // shelled exports: one handler

    const all = await generateAllHandlerAnalytics(f.staff, f.seasonId);
    expect(all.map((x) => x.handlerId)).toEqual(['h1', 'h2', 'h3', 'h4', TRANSFER_RECEIVER]);
    expect(all[0]).toMatchObject({ id: r.id, created: false });
    const wb4 = await workbook(ctx, all[3].fileId);
    expect(wb4.getWorksheet('Receipts')!.getCell('B3').value).toBe(null); // 104 certified no September form 1
    expect(wb4.getWorksheet('Receipts')!.getCell('B4').value).toBe(400);
  });

  it('lets only staff generate or publish', async () => {
    const alice = f.handler.h1;
    await expect(generateMonthlyPositionReport(alice, '2025-09')).rejects.toMatchObject({ status: 403 });
    await expect(publishMonthlyPositionReport(alice, 'x', true)).rejects.toMatchObject({ status: 403 });
    await expect(generateAnnualPositionReport(alice, f.seasonId)).rejects.toMatchObject({ status: 403 });
    await expect(generateIndustryAnalytics(alice, f.seasonId)).rejects.toMatchObject({ status: 403 });
    await expect(generateHandlerAnalytics(alice, 'h1', f.seasonId)).rejects.toMatchObject({ status: 403 });
    await expect(generateAllHandlerAnalytics(alice, f.seasonId)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses unknown months and seasons with 422', async () => {
    await expect(generateMonthlyPositionReport(f.staff, '2025-13')).rejects.toMatchObject({ status: 422 });
    await expect(generateMonthlyPositionReport(f.staff, '2026-03')).rejects.toMatchObject({ status: 422 });
    await expect(generateAnnualPositionReport(f.staff, 'nope')).rejects.toMatchObject({ status: 422 });
  });
});
