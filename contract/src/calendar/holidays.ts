import { addDays, formatIsoDate, parseIsoDate, weekdayOf } from './iso-date.js';

/**
 * US federal holidays (5 U.S.C. 6103), the holiday calendar the portal uses for due dates (the domain brief
 * proposes it; APC's own calendar is unspecified). Inauguration Day is left out on purpose: it is a holiday only
 * for federal employees around Washington, DC, not a national one.
 *
 * Observed dates follow the rule for most federal employees: a holiday on a Saturday is observed on the Friday
 * before, one on a Sunday on the Monday after. So New Year's Day on a Saturday is observed on 31 December of the
 * year before (e.g. 2021-12-31 for 2022-01-01).
 *
 * The rules are today's: Monday holidays since 1971, Martin Luther King Jr. Day from 1986, Juneteenth from 2021.
 * Earlier years are not reproduced exactly (the portal's data starts in 2016).
 */
export interface FederalHoliday {
  name: string;
  /** The legal date. */
  date: string;
  /** The day off: the legal date moved off a weekend. */
  observed: string;
}

const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;

/** The n-th (1-based) given weekday of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = formatIsoDate({ year, month, day: 1 });
  const offset = (weekday - weekdayOf(first) + 7) % 7;
  return addDays(first, offset + (n - 1) * 7);
}

function lastWeekday(year: number, month: number, weekday: number): string {
  const nextMonthFirst =
    month === 12
      ? formatIsoDate({ year: year + 1, month: 1, day: 1 })
      : formatIsoDate({ year, month: month + 1, day: 1 });
  const last = addDays(nextMonthFirst, -1);
  return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
}

function observedDate(date: string): string {
  const weekday = weekdayOf(date);
  if (weekday === SATURDAY) return addDays(date, -1);
  if (weekday === SUNDAY) return addDays(date, 1);
  return date;
}

const fixed = (name: string, year: number, month: number, day: number): FederalHoliday => {
  const date = formatIsoDate({ year, month, day });
  return { name, date, observed: observedDate(date) };
};
const floating = (name: string, date: string): FederalHoliday => ({ name, date, observed: date });

/** The federal holidays whose legal date falls in the year, in calendar order. */
export function federalHolidays(year: number): FederalHoliday[] {
  if (!Number.isInteger(year)) throw new RangeError(`Not a year: ${year}`);
  const holidays: (FederalHoliday | false)[] = [
    fixed("New Year's Day", year, 1, 1),
    year >= 1986 && floating('Birthday of Martin Luther King, Jr.', nthWeekday(year, 1, MONDAY, 3)),
    floating("Washington's Birthday", nthWeekday(year, 2, MONDAY, 3)),
    floating('Memorial Day', lastWeekday(year, 5, MONDAY)),
    year >= 2021 && fixed('Juneteenth National Independence Day', year, 6, 19),
    fixed('Independence Day', year, 7, 4),
    floating('Labor Day', nthWeekday(year, 9, MONDAY, 1)),
    floating('Columbus Day', nthWeekday(year, 10, MONDAY, 2)),
    fixed('Veterans Day', year, 11, 11),
    floating('Thanksgiving Day', nthWeekday(year, 11, THURSDAY, 4)),
    fixed('Christmas Day', year, 12, 25),
  ];
  return holidays.filter((holiday): holiday is FederalHoliday => holiday !== false);
}

/** The holiday observed on this date, if any (checks next year's New Year's Day for 31 December). */
export function federalHolidayObservedOn(date: string): FederalHoliday | undefined {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${date}`);
  const candidates = [...federalHolidays(parsed.year), ...federalHolidays(parsed.year + 1).slice(0, 1)];
  return candidates.find((holiday) => holiday.observed === date);
}

export function isFederalHoliday(date: string): boolean {
  return federalHolidayObservedOn(date) !== undefined;
}
