/**
 * The assessment invoice issued for a certified Form 1 (and re-issued when an amendment changes the assessment).
 */
import { handlerLine, type HandlerRef } from './common.js';
import { EMPTY, formatCents, formatDate, formatInteger, formatMonth, formatRate, moneyToCents } from './format.js';
import { COLORS, PdfLayout, type TableRow } from './pdf-layout.js';

export type AssessmentType = 'improved' | 'native' | 'substandard';

/** One assessed pecan type: pounds x rate = amount. */
export interface InvoiceLine {
  type: AssessmentType;
  /** Overrides the default description ("Improved pecans, inshell"). */
  description?: string;
  /** Inshell pounds assessed. */
  pounds: number;
  /** Rate in USD per inshell pound, as a decimal string ("0.0100"). */
  rate: string;
  /** pounds x rate, rounded to cents, as a decimal string ("1667.00"). */
  amount: string;
}

/**
 * An invoice as stored plus what it refers to. Money values are decimal strings as on the API. `adjustment` is set
 * when the invoice is re-issued after an amendment of its Form 1 changed the assessment.
 */
export interface InvoicePdfInput {
  invoiceNumber: string;
  /** YYYY-MM-DD. */
  issueDate?: string;
  handler: HandlerRef & { address?: string[] };
  period: { month: string };
  /** What the invoice is for, e.g. "Form 1, October 2026, Amendment 1". */
  formReference?: string;
  lines: InvoiceLine[];
  amountDue: string;
  /** YYYY-MM-DD. */
  dueDate: string;
  status: 'open' | 'paid';
  /** YYYY-MM-DD, when paid. */
  paidDate?: string | null;
  adjustment?: {
    previousAmount: string;
    newAmount: string;
    /** newAmount - previousAmount; derived when left out. */
    difference?: string;
    amendmentNumber?: number;
    previousInvoiceNumber?: string;
    /** Why the amount changed, when not an amendment of the invoice's own Form 1 (e.g. an inter-handler transfer). */
    reason?: string;
  } | null;
  /** Remittance details printed under "Payable to the American Pecan Council". */
  payTo?: string[];
}

const TYPE_TEXT: Record<AssessmentType, string> = {
  improved: 'Improved pecans, inshell',
  native: 'Native / seedling pecans, inshell',
  substandard: 'Substandard pecans, inshell',
};

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const pdf = await PdfLayout.create({
    title: `Assessment Invoice ${input.invoiceNumber}`,
    reference: `Handler ${input.handler.number}  |  ${formatMonth(input.period.month)}`,
    footerNote: `Invoice ${input.invoiceNumber}  |  ${handlerLine(input.handler)}  |  Assessments under Marketing Order 986 (7 CFR Part 986)`,
  });
  const paid = input.status === 'paid';
  pdf.title('Assessment Invoice', paid ? 'PAID' : 'OPEN', paid ? COLORS.ok : COLORS.alert);
  drawDetails(pdf, input);
  drawBillTo(pdf, input);
  drawLines(pdf, input);
  if (input.adjustment) drawAdjustment(pdf, input.adjustment);
  drawAmountDue(pdf, input);
  drawPayment(pdf, input);
  return pdf.finish();
}

function drawDetails(pdf: PdfLayout, input: InvoicePdfInput): void {
  pdf.infoGrid(
    [
      ['Invoice number', input.invoiceNumber],
      ['Invoice date', formatDate(input.issueDate)],
      ['Due date', formatDate(input.dueDate)],
      ['Reporting period', formatMonth(input.period.month)],
      ['Status', input.status === 'paid' ? `Paid${input.paidDate ? ` on ${formatDate(input.paidDate)}` : ''}` : 'Open'],
      ['For', input.formReference ?? `Form 1, ${formatMonth(input.period.month)}`],
    ],
    3,
  );
}

function drawBillTo(pdf: PdfLayout, input: InvoicePdfInput): void {
  pdf.heading('Bill to', 50);
  pdf.paragraph(input.handler.name, { size: 11, font: 'bold', after: 1 });
  pdf.paragraph(`Handler number ${input.handler.number}`, { size: 9.5, after: 1 });
  for (const line of input.handler.address ?? []) pdf.paragraph(line, { size: 9.5, after: 1 });
}

function drawLines(pdf: PdfLayout, input: InvoicePdfInput): void {
  pdf.heading('Assessment');
  const rows: TableRow[] = input.lines.map((line) => ({
    cells: [
      line.description ?? TYPE_TEXT[line.type] ?? line.type,
      formatInteger(line.pounds),
      `${formatRate(line.rate)} / lb`,
      money(line.amount),
    ],
  }));
  const total = input.lines.reduce((n, l) => n + (moneyToCents(l.amount) ?? 0), 0);
  const pounds = input.lines.reduce((n, l) => n + l.pounds, 0);
  rows.push({ cells: ['Total assessment', formatInteger(pounds), '', formatCents(total)], style: 'total' });
  pdf.table({
    columns: [
      { header: 'Description', width: 40 },
      { header: 'Pounds (lb inshell)', width: 22, align: 'right' },
      { header: 'Rate', width: 18, align: 'right' },
      { header: 'Amount', width: 20, align: 'right' },
    ],
    rows,
  });
}

function money(value: unknown): string {
  const cents = moneyToCents(value);
  return cents === null ? EMPTY : formatCents(cents);
}

function drawAdjustment(pdf: PdfLayout, adj: NonNullable<InvoicePdfInput['adjustment']>): void {
  pdf.heading(adj.reason ? 'Adjustment' : 'Adjustment after amendment');
  const why = adj.amendmentNumber
    ? `Amendment ${adj.amendmentNumber} of the Form 1 changed the assessment.`
    : 'An amendment of the Form 1 changed the assessment.';
  const previous = adj.previousInvoiceNumber ? ` (invoice ${adj.previousInvoiceNumber})` : '';
  pdf.paragraph(`${adj.reason ?? why} This invoice replaces the amount previously invoiced${previous}.`, { size: 9.5 });
  const diff =
    moneyToCents(adj.difference) ?? (moneyToCents(adj.newAmount) ?? 0) - (moneyToCents(adj.previousAmount) ?? 0);
  pdf.table({
    width: 320,
    columns: [
      { header: 'Item', width: 60 },
      { header: 'Amount', width: 40, align: 'right' },
    ],
    rows: [
      { cells: ['Previous amount', money(adj.previousAmount)] },
      { cells: ['New amount', money(adj.newAmount)] },
      {
        cells: [diff < 0 ? 'Difference (credit)' : 'Difference', `${diff > 0 ? '+' : ''}${formatCents(diff)}`],
        style: 'total',
      },
    ],
  });
}

function drawAmountDue(pdf: PdfLayout, input: InvoicePdfInput): void {
  pdf.ensure(60);
  pdf.space(12);
  const top = pdf.y;
  const width = 250;
  const x = pdf.left + pdf.contentWidth - width;
  pdf.rect(x, top - 48, width, 48, COLORS.brandLight, COLORS.brand, 1);
  pdf.text(input.status === 'paid' ? 'AMOUNT PAID' : 'AMOUNT DUE', x + 12, top - 17, {
    size: 8,
    font: 'bold',
    color: COLORS.muted,
  });
  pdf.textRight(money(input.amountDue), x + width - 12, top - 22, { size: 18, font: 'bold', color: COLORS.brand });
  const status =
    input.status === 'paid'
      ? `Paid${input.paidDate ? ` on ${formatDate(input.paidDate)}` : ''}. Thank you.`
      : `Due by ${formatDate(input.dueDate)}`;
  pdf.text(status, x + 12, top - 40, {
    size: 9,
    font: 'bold',
    color: input.status === 'paid' ? COLORS.ok : COLORS.alert,
  });
  pdf.y = top - 60;
}

function drawPayment(pdf: PdfLayout, input: InvoicePdfInput): void {
  pdf.notice('Payable to the American Pecan Council', [
    ...(input.payTo ?? []),
    `Please quote invoice number ${input.invoiceNumber} and handler number ${input.handler.number} with your payment.`,
    'The assessment is owed by the first handler of inshell pecans, per inshell pound, at the rate in effect for the ' +
      'reporting month, unless an inter-handler agreement (Form 4) makes the receiving handler responsible. Questions about this invoice: contact the American Pecan Council.',
  ]);
}
