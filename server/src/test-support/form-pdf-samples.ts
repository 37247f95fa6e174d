import type { FormPdfInput } from '../render/form-pdf.js';
import type { InvoicePdfInput } from '../render/invoice-pdf.js';

/**
 * A handler, a certification, a form 1 and its invoice as the PDF tests render them (render/form-pdf.test.ts,
 * pdf-threads.test.ts) and `npm run bench:pdf` times them.
 */
export const handler = { name: 'Riverbend Pecan Co.', number: '101' };
export const certification = { name: 'Alice Walker', title: 'Controller', datetime: '2026-11-09T14:03:27+00:00' };

export const form1: FormPdfInput = {
  bundle: 'apc_form_1',
  handler,
  period: { month: '2026-10' },
  amendmentNumber: 0,
  status: 'certified',
  attributes: {
    field_date_completed: '2026-11-08',
    field_no_change_flag: false,
    field_receipts_by_variety: [
      { variety: 'Desirable', pounds: 120000 },
      { variety: 'Stuart', pounds: 45500 },
      { variety: 'Other', pounds: 1200 },
    ],
    field_receipts_native: 80000,
    field_receipts_substandard: 2500,
    field_receipts_improved: 166700,
    field_receipts_total: 249200,
    field_receipts_ytd_improved: 1234567,
    field_receipts_ytd_native: 80000,
    field_receipts_ytd_substandard: 2500,
    field_assessment_due: '1667.00',
    field_shipments_inshell: 50000,
    field_shipments_shelled: 21000,
    field_interhandler_shipped: 0,
    field_interhandler_received: 12000,
    field_shipments_inshell_prev_month: 30500,
    field_shipments_inshell_ytd: 80500,
    field_shipments_shelled_prev_month: 8000,
    field_shipments_shelled_ytd: 29000,
    field_interhandler_shipped_prev_month: 0,
    field_interhandler_shipped_ytd: 0,
    field_interhandler_received_prev_month: 4000,
    field_interhandler_received_ytd: 16000,
    field_inventory_inshell: 310000,
    field_inventory_shelled: 42000,
    field_committed_domestic: 15000,
    field_committed_domestic_shelled: 6000,
    field_committed_export: 9000,
    field_committed_export_shelled: 3000,
    field_under_contract_from_handlers: 0,
    field_under_contract_shelled: 0,
  },
  certification,
};

export const invoice: InvoicePdfInput = {
  invoiceNumber: 'APC-2026-10-101',
  issueDate: '2026-11-09',
  handler: { ...handler, address: ['1200 River Road', 'Albany, GA 31701'] },
  period: { month: '2026-10' },
  formReference: 'Form 1, October 2026',
  lines: [{ type: 'improved', pounds: 165500, rate: '0.0100', amount: '1655.00' }],
  amountDue: '1655.00',
  dueDate: '2026-11-10',
  status: 'open',
};
