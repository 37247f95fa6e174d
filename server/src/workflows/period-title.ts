// Apart from seasons.ts, which makes packages (packages.ts), so that packages.ts can name them without a cycle.

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A reporting period's title: 'September 2026' for '2026-09'. */
export const periodTitle = (month: string): string =>
  `${MONTH_NAMES[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
