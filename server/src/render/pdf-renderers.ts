import { renderAnnualPositionReportPdf, type AnnualPositionReportInput } from './annual-position-report-pdf.js';
import { renderFormPdf, type FormPdfInput } from './form-pdf.js';
import { renderInvoicePdf, type InvoicePdfInput } from './invoice-pdf.js';
import { renderMonthlyPositionReportPdf, type MonthlyPositionReportInput } from './monthly-position-report-pdf.js';

/** Every PDF the server renders, by kind, with its input: plain data, so that it can be sent to a thread. */
export interface PdfInputs {
  form: FormPdfInput;
  invoice: InvoicePdfInput;
  'monthly-position-report': MonthlyPositionReportInput;
  'annual-position-report': AnnualPositionReportInput;
}
export type PdfKind = keyof PdfInputs;

export const PDF_RENDERERS: { [K in PdfKind]: (input: PdfInputs[K]) => Promise<Uint8Array> } = {
  form: renderFormPdf,
  invoice: renderInvoicePdf,
  'monthly-position-report': renderMonthlyPositionReportPdf,
  'annual-position-report': renderAnnualPositionReportPdf,
};

/** Renders in the calling thread. */
export const renderPdfHere = <K extends PdfKind>(kind: K, input: PdfInputs[K]): Promise<Uint8Array> =>
  PDF_RENDERERS[kind](input);
