/**
 * A handler's analytics workbook for one season: its own monthly figures beside the industry's, and its share of
 * the industry as a formula.
 */
import { WITHHELD_FOOTNOTE, type Figure, type HandlerRef } from './common.js';
import { formatMonth } from './format.js';
import {
  POUNDS_FORMAT,
  SHARE_FORMAT,
  addNotesSheet,
  addSheet,
  columnLetter,
  createWorkbook,
  shareCell,
  sumCell,
  workbookBuffer,
  type CellSpec,
  type ColumnSpec,
} from './workbook.js';

/** The figures compared, each in pounds. */
export type HandlerMetric =
  | 'receiptsImproved'
  | 'receiptsNative'
  | 'receiptsSubstandard'
  | 'shipmentsInshell'
  | 'shipmentsShelled'
  | 'inventoryInshell'
  | 'inventoryShelled'
  | 'exportsInshell'
  | 'exportsShelled';

/**
 * One month: the handler's own figures from its current forms (null when it filed none) and the industry's totals
 * (withheld when fewer than three handlers contributed, which also hides the handler's share).
 */
export interface HandlerAnalyticsMonth {
  /** YYYY-MM. */
  month: string;
  handler: Record<HandlerMetric, number | null>;
  industry: Record<HandlerMetric, Figure>;
}

export interface HandlerAnalyticsInput {
  handler: HandlerRef;
  season: { title: string };
  /** The season's months in order. */
  months: HandlerAnalyticsMonth[];
  /** ISO timestamp. */
  generatedAt?: string;
}

interface Topic {
  sheet: string;
  /** Whether a season total makes sense (flows do; month-end positions do not). */
  total: boolean;
  metrics: Array<{ key: HandlerMetric; label: string }>;
}

const TOPICS: Topic[] = [
  {
    sheet: 'Receipts',
    total: true,
    metrics: [
      { key: 'receiptsImproved', label: 'Improved receipts (lb inshell)' },
      { key: 'receiptsNative', label: 'Native receipts (lb inshell)' },
      { key: 'receiptsSubstandard', label: 'Substandard receipts (lb inshell)' },
    ],
  },
  {
    sheet: 'Shipments',
    total: true,
    metrics: [
      { key: 'shipmentsInshell', label: 'Shipments inshell (lb)' },
      { key: 'shipmentsShelled', label: 'Shipments shelled (lb)' },
    ],
  },
  {
    sheet: 'Inventory',
    total: false,
    metrics: [
      { key: 'inventoryInshell', label: 'Inventory inshell (lb, month end)' },
      { key: 'inventoryShelled', label: 'Inventory shelled (lb, month end)' },
    ],
  },
  {
    sheet: 'Exports',
    total: true,
    metrics: [
      { key: 'exportsInshell', label: 'Exports inshell (lb)' },
      { key: 'exportsShelled', label: 'Exports shelled (lb)' },
    ],
  },
];

const FIRST_DATA_ROW = 3; // two header rows

export async function renderHandlerAnalyticsWorkbook(input: HandlerAnalyticsInput): Promise<Buffer> {
  const workbook = createWorkbook(`Handler ${input.handler.number} analytics ${input.season.title}`, input.generatedAt);
  for (const topic of TOPICS) addTopicSheet(workbook, topic, input.months);
  addNotesSheet(workbook, `${input.handler.name} (Handler ${input.handler.number}): season ${input.season.title}`, [
    ['Your figures', "From your handler's certified forms (the latest version of each, amendments included)."],
    ['Industry', "The total of all handlers' reports for the month, your own included."],
    ['Share', "Your figure divided by the industry's (an Excel formula); empty when the industry total is zero."],
    [
      'Totals',
      'Season totals are SUM formulas over the monthly rows; inventory is a month-end position and has no season total.',
    ],
    ['Withheld', `${WITHHELD_FOOTNOTE} Your share of a withheld total is withheld too.`],
    [
      'Confidentiality',
      'This workbook contains your own confidential figures (7 CFR 986.81); it is available to your company and council staff only.',
    ],
  ]);
  return workbookBuffer(workbook);
}

/** Month | per metric: Yours, Industry, Share. */
function addTopicSheet(
  workbook: ReturnType<typeof createWorkbook>,
  topic: Topic,
  months: HandlerAnalyticsMonth[],
): void {
  const rows: CellSpec[][] = months.map((m, i) => {
    const r = FIRST_DATA_ROW + i;
    return [
      formatMonth(m.month),
      ...topic.metrics.flatMap((metric, k) => {
        const [yours, industry] = metricColumns(k);
        const own = m.handler[metric.key];
        const all = m.industry[metric.key];
        return [own, all, shareCell(`${yours}${r}`, `${industry}${r}`, own, all)];
      }),
    ];
  });
  if (topic.total) rows.push(totalRow(topic, rows));
  const columns: ColumnSpec[] = [
    { width: 16 },
    ...topic.metrics.flatMap(() => [
      { width: 14, numFmt: POUNDS_FORMAT },
      { width: 16, numFmt: POUNDS_FORMAT },
      { width: 10, numFmt: SHARE_FORMAT },
    ]),
  ];
  addSheet(workbook, {
    name: topic.sheet,
    headerRows: [
      ['', ...topic.metrics.flatMap((m) => [m.label, '', ''])],
      ['Month', ...topic.metrics.flatMap(() => ['Yours', 'Industry', 'Your share'])],
    ],
    merges: topic.metrics.map((_, k) => `${metricColumns(k)[0]}1:${metricColumns(k)[2]}1`),
    columns,
    rows,
    boldRows: topic.total ? [rows.length] : [],
  });
}

/** The column letters of the k-th metric: yours, industry, share. */
function metricColumns(k: number): [string, string, string] {
  const first = 2 + 3 * k;
  return [columnLetter(first), columnLetter(first + 1), columnLetter(first + 2)];
}

function totalRow(topic: Topic, rows: CellSpec[][]): CellSpec[] {
  const last = FIRST_DATA_ROW + rows.length - 1;
  const totalRowNumber = last + 1;
  return [
    'Season total',
    ...topic.metrics.flatMap((_, k) => {
      const [yours, industry] = metricColumns(k);
      const own = sumCell(
        `${yours}${FIRST_DATA_ROW}:${yours}${last}`,
        rows.map((r) => r[1 + 3 * k]),
      );
      const all = sumCell(
        `${industry}${FIRST_DATA_ROW}:${industry}${last}`,
        rows.map((r) => r[2 + 3 * k]),
      );
      return [own, all, shareCell(`${yours}${totalRowNumber}`, `${industry}${totalRowNumber}`, own, all)];
    }),
  ];
}
