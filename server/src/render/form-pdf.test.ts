import { pdfPages } from '../test-support/pdf.js';
import { certificationStatement, FORM_FIELDS } from '@pecan/contract';
import { describe, expect, it } from 'vitest';
import { renderFormPdf, type FormPdfInput } from './form-pdf.js';
import { fieldLabel } from './form-labels.js';
import { pdfSafe } from './format.js';

import { certification, form1, handler } from '../test-support/form-pdf-samples.js';

describe('renderFormPdf', () => {
  it('prints the one certification statement, the words shown on screen, on the PDF of every form', async () => {
    const bundles = ['apc_form_1', 'apc_form_2', 'apc_form_3', 'apc_form_4', 'apc_form_5'] as const;
    const statement = certificationStatement(handler.name);
    expect(statement).toContain('on behalf of Riverbend Pecan Co.');
    for (const bundle of bundles) {
      const input: FormPdfInput = { ...form1, bundle, attributes: {}, season: { title: '2026-2027' } };
      if (bundle === 'apc_form_4')
        input.transfer = {
          transferring: handler,
          receiving: { name: 'Mesa Valley Pecans', number: '102' },
          activity: 'active',
        };
      const text = (await pdfPages(await renderFormPdf(input), bundle)).join(' ').replace(/\s+/g, ' ');
      expect(text, bundle).toContain(statement);
    }
  });

  it('prints the header, every field with label, unit and value, and the certification', async () => {
    const pages = await pdfPages(await renderFormPdf(form1), 'form-1');
    const text = pages.join('\n');
    for (const expected of [
      'AMERICAN PECAN COUNCIL',
      'Form 1 - Summary Report',
      'Riverbend Pecan Co.',
      '101',
      'October 2026',
      '1,234,567',
      '$1,667.00',
      '120,000',
      'Desirable',
      'Stuart',
      '166,700',
      'Nov 8, 2026',
      'lb inshell',
      'lb shelled',
      'Calculated',
      'No',
      'I am authorized to file this report on behalf of',
      'Alice Walker',
      'Controller',
      'Nov 9, 2026, 14:03 UTC',
      '7 CFR 986.81',
      'Reports that reveal trade secrets, trade position, financial condition or business operations',
    ])
      expect(text).toContain(expected);
    for (const field of FORM_FIELDS.apc_form_1) expect(text).toContain(pdfSafe(fieldLabel(field.name)));
    expect(text).not.toContain('AMENDMENT');
    expect(text).toContain(`Page 1 of ${pages.length}`);
  });

  it('labels each shipment figure with its flow, its period and its basis, and prints no mixed total', async () => {
    const text = (await pdfPages(await renderFormPdf(form1), 'form-1-bases')).join('\n');
    for (const expected of [
      'Shipments in the previous month, inshell (lb inshell)',
      'Shipments season to date, shelled (lb shelled)',
      'Inter-handler transfers received season to date (lb inshell)',
      'Inventory committed, not yet shipped, export, shelled (lb shelled)',
      'Under contract for purchase from other handlers, inshell (lb inshell)',
    ])
      expect(text).toContain(expected);
    expect(text).not.toMatch(/Total shipments/i);
    // 50,000 inshell + 21,000 shelled would be 71,000: a figure that must never appear.
    expect(text).not.toContain('71,000');
  });

  it("lists the inter-handler shipment lines with the receivers' names and their total", async () => {
    const text = (
      await pdfPages(
        await renderFormPdf({
          ...form1,
          attributes: {
            ...form1.attributes,
            field_interhandler_shipped: 25_000,
            field_interhandler_shipments: [
              { receiving_handler: 'h-102', pecan_type: 'improved', pounds: 20_000 },
              { receiving_handler: 'h-102', pecan_type: 'native', pounds: 5_000 },
            ],
          },
          receivers: { 'h-102': { name: 'Mesa Valley Pecans', number: '102' } },
        }),
        'form-1-transfers',
      )
    ).join('\n');
    for (const expected of [
      'Receiving handler',
      'Mesa Valley Pecans',
      '102',
      'Improved',
      'Native / seedling',
      '20,000',
      '5,000',
      '25,000',
    ])
      expect(text).toContain(expected);
  });

  it('marks an amendment with its number and reason, and a draft as not certified', async () => {
    const pages = await pdfPages(
      await renderFormPdf({
        ...form1,
        amendmentNumber: 2,
        amendmentReason: 'Corrected native receipts after audit',
        status: 'draft',
        certification: null,
      }),
      'form-1-amendment-draft',
    );
    const text = pages.join('\n');
    expect(text).toContain('AMENDMENT 2');
    expect(text).toContain('Corrected native receipts after audit');
    expect(text).toContain('not been certified');
    expect(text).toContain('DRAFT');
  });

  it('renders names in non-Latin scripts without crashing', async () => {
    const bytes = await renderFormPdf({
      ...form1,
      handler: { name: '李明 Pecan Co. Łódź', number: '103' },
      amendmentNumber: 1,
      amendmentReason: 'Исправление: 😀 typo\nsecond line',
      certification: { name: 'Дмитрий Иванов', title: 'Müller & Søn — CFO', datetime: '2026-11-09T14:03:00+00:00' },
      attributes: { ...form1.attributes, field_receipts_by_variety: [{ variety: 'Ωmega ピーカン', pounds: 5 }] },
    });
    const text = (await pdfPages(bytes, 'form-1-non-latin')).join('\n');
    expect(text).toContain('Li Ming Pecan Co. Lódz');
    expect(text).toContain('Dmitriy Ivanov');
    expect(text).toContain('Müller & Søn — CFO');
  });

  it('flows a long form 3 onto further pages with its rows and totals', async () => {
    const countries = ['MX', 'CN', 'VN', 'NL', 'DE', 'CA', 'IN', 'AE', 'KR', 'JP', 'GB', 'ES', 'IT', 'FR', 'TR'];
    const rows = Array.from({ length: 75 }, (_, i) => ({
      field_country: countries[i % countries.length],
      field_inshell_lb: 1000 + i,
      field_shelled_lb: 500,
      field_substandard_lb: i % 3,
    }));
    const pages = await pdfPages(
      await renderFormPdf({
        bundle: 'apc_form_3',
        handler,
        period: { month: '2027-01' },
        amendmentNumber: 0,
        status: 'certified',
        attributes: { field_no_change_flag: false, field_total_inshell_lb: 77775, field_ytd_shelled_lb: 987654 },
        rows,
        certification,
      }),
      'form-3-long',
    );
    expect(pages.length).toBeGreaterThan(2);
    const text = pages.join('\n');
    expect(text).toContain('Form 3 - Exports by Country of Destination');
    expect(text).toContain('Mexico (MX)');
    expect(text).toContain('Viet');
    expect(text).toContain('1,074'); // the last row
    expect(text).toContain('77,775'); // total inshell: sum of 1000..1074
    expect(text).toContain('37,500'); // total shelled
    expect(pages[1]).toContain('Country'); // the header row repeats
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(pages.at(-1)).toContain('I certify');
  });

  it('prints form 2 purchases with totals', async () => {
    const text = (
      await pdfPages(
        await renderFormPdf({
          bundle: 'apc_form_2',
          handler,
          period: { month: '2026-12' },
          amendmentNumber: 0,
          status: 'certified',
          attributes: {
            field_no_change_flag: false,
            field_mexico_ship_date: '2026-12-03',
            field_mexico_inshell_lb: 40000,
            field_purchased_inshell_total: 35000,
            field_purchased_shelled_total: 4000,
          },
          rows: [
            {
              field_import_date: '2026-12-02',
              field_country_of_origin: 'MX',
              field_inshell_lb: 30000,
              field_shelled_lb: 0,
              field_variety: 'Wichita',
            },
            {
              field_import_date: '2026-12-15',
              field_country_of_origin: 'ZA',
              field_inshell_lb: 5000,
              field_shelled_lb: 4000,
              field_variety: null,
            },
          ],
          certification,
        }),
        'form-2',
      )
    ).join('\n');
    for (const expected of [
      'Pecans purchased outside the US',
      'Dec 2, 2026',
      'Mexico (MX)',
      'South Africa (ZA)',
      'Wichita',
      '35,000',
      '4,000',
      'Total',
      '40,000',
    ])
      expect(text).toContain(expected);
  });

  it('prints forms 4 and 5 for a season', async () => {
    const form4 = (
      await pdfPages(
        await renderFormPdf({
          bundle: 'apc_form_4',
          handler,
          season: { title: '2026-2027' },
          amendmentNumber: 0,
          status: 'certified',
          transfer: {
            transferring: handler,
            receiving: { name: 'Mesa Valley Pecans', number: '102' },
            activity: 'active',
          },
          attributes: {
            field_responsible_handler: 'receiving',
            field_first_transfer_month: '2026-10',
            field_date_completed: '2026-11-02',
          },
          certification,
        }),
        'form-4',
      )
    ).join('\n');
    for (const expected of [
      'Form 4 - Inter-Handler Transfer Agreement',
      '2026-2027',
      'Mesa Valley Pecans',
      'October 2026',
    ])
      expect(form4).toContain(expected);
    expect(form4).toContain('Awaiting the countersignature of the receiving handler.');
    expect(form4).not.toContain('COUNTERSIGNED BY');
    const form5 = (
      await pdfPages(
        await renderFormPdf({
          bundle: 'apc_form_5',
          handler,
          season: { title: '2025-2026' },
          amendmentNumber: 0,
          status: 'certified',
          attributes: {
            field_inshell_inventory_improved: 250000,
            field_avg_price_paid_improved: '2.3475',
            field_avg_price_paid_native: '1.4000',
            field_shellout_yield: '0.4800',
            field_shelled_uncommitted: 6000,
            field_committed_inshell_basis: 88333,
            field_uncommitted_inshell_basis: 52500,
            field_total_inventory_inshell_basis: 140833,
            field_assessments_owed: '12345.60',
            field_aug_form_1_inventory_inshell: 248000,
            field_aug_form_1_amend_reqd: true,
          },
          certification,
        }),
        'form-5',
      )
    ).join('\n');
    for (const expected of [
      'Form 5 - Year-End Inventory Report',
      '250,000',
      '$2.3475',
      '$1.4000',
      'USD/lb',
      '0.4800 (48.00%)',
      '$12,345.60',
      'Yes',
      'Shelled uncommitted',
      '6,000',
      'Committed plus uncommitted inventory, inshell basis',
      '140,833',
      'August Form 1 inventory, inshell',
      '248,000',
    ])
      expect(form5).toContain(expected);
  });
});
