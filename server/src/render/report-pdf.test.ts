import { pdfPages } from '../test-support/pdf.js';
import { describe, expect, it } from 'vitest';
import { renderAnnualPositionReportPdf, type AnnualPositionReportInput } from './annual-position-report-pdf.js';
import { renderInvoicePdf, type InvoicePdfInput } from './invoice-pdf.js';
import { renderMonthlyPositionReportPdf, type MonthlyPositionReportInput } from './monthly-position-report-pdf.js';

const invoice: InvoicePdfInput = {
  invoiceNumber: 'APC-2026-10-101',
  issueDate: '2026-11-09',
  handler: { name: 'Riverbend Pecan Co.', number: '101', address: ['1200 River Road', 'Albany, GA 31701'] },
  period: { month: '2026-10' },
  formReference: 'Form 1, October 2026',
  lines: [
    { type: 'improved', pounds: 166700, rate: '0.0100', amount: '1667.00' },
    { type: 'native', pounds: 80000, rate: '0.0000', amount: '0.00' },
    { type: 'substandard', pounds: 2500, rate: '0.0000', amount: '0.00' },
  ],
  amountDue: '1667.00',
  dueDate: '2026-11-10',
  status: 'open',
};

describe('renderInvoicePdf', () => {
  it('prints the invoice, its lines and the amount due', async () => {
    const text = (await pdfPages(await renderInvoicePdf(invoice), 'invoice-open')).join('\n');
    for (const expected of [
      'Assessment Invoice',
      'APC-2026-10-101',
      'Riverbend Pecan Co.',
      '101',
      '1200 River Road',
      'October 2026',
      '166,700',
      '$0.01 / lb',
      '$1,667.00',
      'Nov 10, 2026',
      'OPEN',
      'Payable to the American Pecan Council',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Adjustment');
  });

  it('prints lines moved under an inter-handler agreement, with the other handler named', async () => {
    const text = (
      await pdfPages(
        await renderInvoicePdf({
          ...invoice,
          lines: [
            { type: 'improved', pounds: 166700, rate: '0.0100', amount: '1667.00' },
            {
              type: 'improved',
              description:
                'Assessment assumed by Mesa Valley Pecans (102) under inter-handler agreement, improved (credit)',
              pounds: -20000,
              rate: '0.0100',
              amount: '-200.00',
            },
          ],
          amountDue: '1467.00',
          adjustment: {
            previousAmount: '1667.00',
            newAmount: '1467.00',
            reason: 'An inter-handler transfer changed the assessment.',
          },
        }),
        'invoice-transfer',
      )
    ).join('\n');
    for (const expected of [
      'Assessment assumed by Mesa Valley Pecans (102)',
      '-20,000',
      '$1,467.00',
      'An inter-handler transfer changed the assessment.',
    ])
      expect(text).toContain(expected);
  });

  it('shows a paid re-issue with its adjustment line', async () => {
    const text = (
      await pdfPages(
        await renderInvoicePdf({
          ...invoice,
          lines: [{ type: 'improved', pounds: 176700, rate: '0.01', amount: '1767.00' }],
          amountDue: '1767.00',
          status: 'paid',
          paidDate: '2026-11-20',
          adjustment: {
            previousAmount: '1667.00',
            newAmount: '1767.00',
            amendmentNumber: 1,
            previousInvoiceNumber: 'APC-2026-10-101',
          },
        }),
        'invoice-paid-adjusted',
      )
    ).join('\n');
    for (const expected of [
      'PAID',
      'Nov 20, 2026',
      'Adjustment after amendment',
      'Amendment 1',
      '$1,667.00',
      '$1,767.00',
      '+$100.00',
    ])
      expect(text).toContain(expected);
  });
});

const W = { value: null, withheld: true } as const;

const monthly: MonthlyPositionReportInput = {
  month: '2026-11',
  season: { title: '2026-2027' },
  reportingHandlers: 14,
  publishedDate: '2026-12-15',
  receipts: {
    improved: { period: 45_210_000, seasonToDate: 61_300_000 },
    native: { period: 12_004_500, seasonToDate: 15_100_200 },
    substandard: { period: 830_000, seasonToDate: 1_020_000 },
    foreignInshell: { period: 3_400_000, seasonToDate: 5_000_000 },
    foreignShelled: { period: W, seasonToDate: 410_000 },
  },
  shipments: {
    inshell: { period: 9_100_000, seasonToDate: 14_200_000 },
    shelled: { period: 6_300_000, seasonToDate: 11_000_000 },
    interhandler: { period: 2_000_000, seasonToDate: { value: 3_500_000, handlerCount: 5 } },
  },
  inventory: { inshell: 120_500_000, shelled: 21_000_000 },
  committed: { domestic: 18_000_000, export: W },
  exportsByCountry: [
    {
      country: 'MX',
      inshell: { period: 1_200_000, seasonToDate: 2_000_000 },
      shelled: { period: 300_000, seasonToDate: 500_000 },
      substandard: { period: 0, seasonToDate: 0 },
    },
    {
      country: 'CN',
      inshell: { period: 4_500_000, seasonToDate: 7_000_000 },
      shelled: { period: 10_000, seasonToDate: 20_000 },
    },
    { country: 'AE', inshell: { period: W, seasonToDate: W }, shelled: { period: W, seasonToDate: 40_000 } },
  ],
};

describe('renderMonthlyPositionReportPdf', () => {
  it('prints the industry tables, season to date, and withheld figures with the footnote', async () => {
    const pages = await pdfPages(await renderMonthlyPositionReportPdf(monthly), 'position-monthly');
    const text = pages.join('\n');
    for (const expected of [
      'Pecan Industry Position Report',
      'November 2026',
      '2026-2027',
      'REPORTING HANDLERS',
      '14',
      'Improved',
      'Native / seedling',
      'Substandard',
      '45,210,000',
      '61,300,000',
      'Total US-grown',
      '58,044,500',
      'Season to date',
      'Inter-handler transfers',
      '3,500,000',
      'Inventory, inshell',
      '120,500,000',
      'Committed, export',
      'Mexico (MX)',
      'China (CN)',
      'United Arab Emirates (AE)',
      'Total exports',
      '560,000',
      'Withheld',
      'fewer than three',
      '7 CFR 986.81',
    ])
      expect(text).toContain(expected);
    expect(text).toContain(`Page 1 of ${pages.length}`);
  });
});

const annual: AnnualPositionReportInput = {
  season: { title: '2025-2026', startDate: '2025-09-01', endDate: '2026-08-31' },
  reportingHandlers: 15,
  publishedDate: '2026-10-01',
  receipts: { improved: 180_000_000, native: 62_000_000, substandard: W },
  shipments: { inshell: 95_000_000, shelled: 70_000_000, interhandler: 12_000_000 },
  yearEndInventory: {
    inshellImproved: 20_000_000,
    inshellNative: 5_000_000,
    inshellSubstandard: 400_000,
    inshellCommittedDomestic: 6_000_000,
    inshellCommittedExport: 2_000_000,
    inshellUncommitted: 17_400_000,
    shelled: 9_000_000,
    shelledCommittedDomestic: 3_000_000,
    shelledCommittedExport: W,
  },
  handledDomestic: { improved: 170_000_000, native: 60_000_000, substandard: 1_500_000 },
  exportsByCountry: [
    { country: 'MX', inshell: 20_000_000, shelled: 5_000_000, substandard: 10_000 },
    { country: 'VN', inshell: 8_000_000, shelled: W },
  ],
};

describe('renderAnnualPositionReportPdf', () => {
  it('prints the season totals, year-end inventory and withheld figures', async () => {
    const text = (await pdfPages(await renderAnnualPositionReportPdf(annual), 'position-annual')).join('\n');
    for (const expected of [
      'Pecan Industry Position Report',
      '2025-2026',
      'Sep 1, 2025',
      'Aug 31, 2026',
      '15',
      '180,000,000',
      'Year-end inventory as of August 31',
      '25,400,000',
      'Domestic pecans handled',
      '231,500,000',
      'Vietnam (VN)',
      '28,000,000',
      'Withheld',
      'fewer than three',
    ])
      expect(text).toContain(expected);
    // the receipts total would reveal the withheld substandard figure, so it is withheld as well
    expect(text).not.toContain('242,000,000');
  });
});
