import { isFederalHoliday } from './holidays.js';
import { addDays, weekdayOf } from './iso-date.js';

/** A business day is Monday to Friday and not an observed federal holiday. */
export function isBusinessDay(date: string): boolean {
  const weekday = weekdayOf(date);
  return weekday !== 0 && weekday !== 6 && !isFederalHoliday(date);
}

/** The first business day strictly after the date (Friday -> Monday, or Tuesday if Monday is a holiday). */
export function nextBusinessDay(date: string): string {
  return businessDayOnOrAfter(addDays(date, 1));
}

/** The date itself if it is a business day, else the next one: how a due date on a weekend or holiday moves. */
export function businessDayOnOrAfter(date: string): string {
  let day = date;
  // At most a weekend plus a holiday lie in between, so this loops a few times at most.
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}
