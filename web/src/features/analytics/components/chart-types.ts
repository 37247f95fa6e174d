/** One line of a chart: a figure per month, null where there is none (unpublished, withheld or not filed). */
export interface Series {
  name: string;
  values: (number | null)[];
  /** Last season's line is dashed, so the two tell apart without colour. */
  dashed?: boolean;
}

/** What a chart and its data table show: the same months and figures. */
export interface ChartData {
  /** The chart's title, also the table's caption. */
  title: string;
  /** The unit of the figures, e.g. "pounds". */
  unit: string;
  /** Month names in the reader's language, one per value of every series. */
  months: string[];
  series: Series[];
  lang: string;
}
