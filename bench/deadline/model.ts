/**
 * The load model of the last 48 hours before a monthly due date: how many of each thing happen for a number of
 * handlers, and when. Pure: bench/deadline.ts turns it into arrivals, the report prints it as a table.
 *
 * A step of the benchmark plays the 48 hours in `minutes` minutes (the model's clock runs 2,880 / minutes times
 * faster) and at each moment sends `rate` times the modelled real rate of that moment. So the step at rate 10 sends
 * ten times the modelled peak on its last afternoon, whatever the compression; the compression only decides how
 * long the step lasts, and so how many requests it counts (rate x the 48 hours' total x minutes / 2,880).
 */

export const MODEL_HOURS = 48;

/** One kind of session: what starts it, how many start in the 48 hours per handler, and on which curve. */
export interface SessionModel {
  name: SessionName;
  /** Sessions started in the 48 hours, per handler in the data set. */
  perHandler: number;
  curve: 'handlers' | 'office';
  /** How the figure was reached, for the report's table. */
  why: string;
}

export type SessionName =
  | 'sign-in'
  | 'dashboard'
  | 'form 1 filing'
  | 'form 2 filing'
  | 'form 3 filing'
  | 'amendment'
  | 'invoices page'
  | 'board poll'
  | 'board CSV';

/** Who files in the window, and how they work through a form. */
export const FILERS_SHARE = 0.7;
export const SAVES_PER_FORM: Record<'apc_form_1' | 'apc_form_2' | 'apc_form_3', number> = {
  apc_form_1: 6,
  apc_form_2: 2,
  apc_form_3: 2,
};
/** Model minutes a user takes between two saves of a form (typing), and before certifying after the last. */
export const THINK_MINUTES = 2;
/** Staff watching the submissions board through the office hours of both days; the page polls every 15 s. */
export const STAFF_WATCHING = 3;
export const BOARD_POLL_SECONDS = 15;
const OFFICE_HOURS = 10;
/** The board polls only while its tab is in view (React Query's default): half of the office hours. */
const BOARD_IN_VIEW = 0.5;

export const SESSIONS: SessionModel[] = [
  {
    name: 'sign-in',
    perHandler: FILERS_SHARE * 2,
    curve: 'handlers',
    why: 'each filer signs in twice (token, then the dashboard batch)',
  },
  {
    name: 'dashboard',
    perHandler: FILERS_SHARE * 3 + (1 - FILERS_SHARE) * 1,
    curve: 'handlers',
    why: 'filers come back to the dashboard 3 times, the others look once',
  },
  {
    name: 'form 1 filing',
    perHandler: FILERS_SHARE,
    curve: 'handlers',
    why: `70 % of handlers file in the window; form page, ${SAVES_PER_FORM.apc_form_1} saves (the form and next package read again after each), certify: PDF and invoice`,
  },
  {
    name: 'form 2 filing',
    perHandler: FILERS_SHARE,
    curve: 'handlers',
    why: `the same filers; ${SAVES_PER_FORM.apc_form_2} saves, certify: PDF`,
  },
  {
    name: 'form 3 filing',
    perHandler: FILERS_SHARE,
    curve: 'handlers',
    why: `the same filers; ${SAVES_PER_FORM.apc_form_3} saves, certify: PDF`,
  },
  {
    name: 'amendment',
    perHandler: 0.1,
    curve: 'handlers',
    why: 'one handler in ten amends an earlier form 1: new version, added to its package, one save, certify (PDF, invoice)',
  },
  {
    name: 'invoices page',
    perHandler: FILERS_SHARE * 1 + 0.1,
    curve: 'handlers',
    why: 'each filer looks at the invoice once, and each amender',
  },
  {
    name: 'board poll',
    perHandler: 0,
    curve: 'office',
    why: `${STAFF_WATCHING} staff have the submissions board in view half of ${OFFICE_HOURS} office hours a day; it polls every ${BOARD_POLL_SECONDS} s`,
  },
  {
    name: 'board CSV',
    perHandler: 0,
    curve: 'office',
    why: `each of them exports the board's CSV 4 times a day`,
  },
];

/** Sessions in the 48 hours independent of the number of handlers (the staff's). */
export function sessionsIn48Hours(s: SessionModel, handlers: number): number {
  if (s.name === 'board poll') return STAFF_WATCHING * BOARD_IN_VIEW * ((OFFICE_HOURS * 3600) / BOARD_POLL_SECONDS) * 2;
  if (s.name === 'board CSV') return STAFF_WATCHING * 4 * 2;
  return s.perHandler * handlers;
}

/**
 * Relative activity of handlers in each hour of the 48 (hour 0 is midnight two days before the due date's end):
 * a working day's shape, the due date's day 2.5 times the day before, and its afternoon (13:00 to 17:00) 1.6 times
 * that again: the peak.
 */
export function handlerCurve(): number[] {
  const day = [
    0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.3, 0.6, 1, 1, 1, 1, 0.8, 1.2, 1.2, 1.2, 1.2, 0.8, 0.5, 0.5, 0.4, 0.4, 0.3, 0.2,
  ];
  return [...day, ...day.map((w, h) => w * 2.5 * (h >= 13 && h < 17 ? 1.6 : 1))];
}

/** Staff work 8:00 to 18:00 both days, evenly. */
export function officeCurve(): number[] {
  return Array.from({ length: MODEL_HOURS }, (_, h) => (h % 24 >= 8 && h % 24 < 8 + OFFICE_HOURS ? 1 : 0));
}

/** Sessions per real second of a kind in each hour of the 48, at rate 1. */
export function hourlyRates(s: SessionModel, handlers: number): number[] {
  const curve = s.curve === 'handlers' ? handlerCurve() : officeCurve();
  const total = curve.reduce((a, b) => a + b, 0);
  const sessions = sessionsIn48Hours(s, handlers);
  return curve.map((w) => (sessions * w) / total / 3600);
}

/** The modelled peak: the largest rate of sessions a second, of each kind and of all together, at rate 1. */
export function peakRates(handlers: number): { total: number; byKind: Record<string, number> } {
  const byKind = Object.fromEntries(SESSIONS.map((s) => [s.name, Math.max(...hourlyRates(s, handlers))]));
  const sums = Array.from({ length: MODEL_HOURS }, (_, h) =>
    SESSIONS.reduce((sum, s) => sum + hourlyRates(s, handlers)[h], 0),
  );
  return { total: Math.max(...sums), byKind };
}

/** One session to start: its kind and when, in seconds from the step's start. */
export interface Arrival {
  at: number;
  kind: SessionName;
}

/**
 * The sessions of one step: for each kind and each model hour, the expected number (rate x the hour's modelled
 * sessions a second x the hour's compressed length in seconds), rounded at random to a whole number, placed at
 * random within the hour. Sorted by time.
 */
export function arrivals(
  handlers: number,
  rate: number,
  minutes: number,
  random: () => number,
  kinds: ReadonlySet<SessionName> = new Set(SESSIONS.map((s) => s.name)),
): Arrival[] {
  const hourSeconds = (minutes * 60) / MODEL_HOURS;
  const out: Arrival[] = [];
  for (const s of SESSIONS.filter((x) => kinds.has(x.name))) {
    hourlyRates(s, handlers).forEach((perSecond, hour) => {
      // The step sends `rate` times the real rate for hourSeconds of real time.
      const expected = perSecond * rate * hourSeconds;
      const count = Math.floor(expected) + (random() < expected - Math.floor(expected) ? 1 : 0);
      for (let i = 0; i < count; i += 1) out.push({ at: (hour + random()) * hourSeconds, kind: s.name });
    });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Think time between two steps of a session, in real seconds of a step compressed into `minutes`. */
export const thinkSeconds = (minutes: number): number => (THINK_MINUTES * 60 * minutes * 60) / (MODEL_HOURS * 3600);
