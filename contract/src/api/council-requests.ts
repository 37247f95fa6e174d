/**
 * What the council console's endpoints take (docs/COUNCIL-API.md): the zod schema of every request body and query,
 * shared by the server, which refuses what they refuse (422, one error per field, with these very texts), and the
 * web app, which posts their input types. Rules that need the database (does the handler exist, is the address
 * taken) stay in the server.
 */

import { z } from 'zod';
import { MAX_PASSWORD_LENGTH } from '../accounts/password.js';
import { isIsoDate, isPeriodMonth } from '../calendar/iso-date.js';
import { BOARD_STATUSES, REMINDER_KINDS, REMINDER_STATUSES } from './council.js';

/** One refused member of a body (or parameter of a query), with the text the person reads. */
export interface FieldProblem {
  field: string;
  detail: string;
}

/** Record ids are UUIDs; anything longer than this names no record. */
export const MAX_ID_LENGTH = 64;

/** A text the person reads when the member is missing, and another when it is there but wrong. */
const missingOr =
  (missing: string, wrong: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? missing : wrong;

/** A required id: a non-blank string of at most MAX_ID_LENGTH characters. */
function recordId(name: string, wrong = `${name} must be the id (a string) of a record.`) {
  return z
    .string({ error: missingOr(`${name} is required.`, wrong) })
    .refine((v) => v.trim() !== '' && v.length <= MAX_ID_LENGTH, wrong);
}

/** A required calendar date written YYYY-MM-DD. */
function isoDate(name: string, missing: string, example: string) {
  const wrong = `${name} must be a calendar date written YYYY-MM-DD, such as "${example}".`;
  return z.string({ error: missingOr(missing, wrong) }).refine(isIsoDate, wrong);
}

/** Text of at most `max` characters (a blank one is checked by what it stands for, not by its length). */
function text(name: string, max: number) {
  const wrongType = (issue: { input?: unknown }) =>
    issue.input === undefined
      ? `${name} is required.`
      : issue.input === null
        ? `${name} cannot be empty.`
        : `${name} must be text.`;
  return z
    .string({ error: wrongType })
    .refine((v) => v.trim() === '' || v.length <= max, `${name} must be at most ${max} characters long.`);
}

/** Text that must not be blank, trimmed. */
const requiredText = (name: string, max: number) =>
  text(name, max)
    .refine((v) => v.trim() !== '', `${name} cannot be empty.`)
    .transform((v) => v.trim());
const optionalText = (name: string, max: number) => requiredText(name, max).optional();
/** Text, or null (blank text too) for none; may be left out. */
const nullableText = (name: string, max: number) =>
  text(name, max)
    .nullable()
    .transform((v) => (v === null || v.trim() === '' ? null : v.trim()))
    .optional();

// ---- Months, reports, analytics, invoices ----------------------------------------------------------------------

const PERIOD_MONTH_FORMAT = 'period_month must be a month written YYYY-MM, such as "2026-10".';

/** POST /periods, /reports/monthly and /reports/monthly/revision. */
export const periodMonthBody = z.strictObject({
  period_month: z
    .string({
      error: missingOr('period_month is required: a month written YYYY-MM, such as "2026-10".', PERIOD_MONTH_FORMAT),
    })
    .refine(isPeriodMonth, PERIOD_MONTH_FORMAT),
});

/** POST /reports/annual, /reports/annual/revision, /analytics/industry and /analytics/handlers. */
export const seasonIdBody = z.strictObject({ season_id: recordId('season_id') });

/** POST /reports/monthly/:id/publish. */
export const publishBody = z.strictObject({
  publish: z.boolean({ error: 'publish is required and must be true or false.' }),
});

export const MAX_REFERENCE_LENGTH = 255;
const REFERENCE_WRONG = `reference must be text of at most ${MAX_REFERENCE_LENGTH} characters, or null.`;

/** POST /invoices/:id/paid: the payment date and an optional reference (blank is none). */
export const invoicePaidBody = z.strictObject({
  paid_date: isoDate('paid_date', 'paid_date is required: the payment date written YYYY-MM-DD.', '2026-11-20'),
  reference: z
    .string({ error: REFERENCE_WRONG })
    .max(MAX_REFERENCE_LENGTH, REFERENCE_WRONG)
    .nullable()
    .optional()
    .transform((v) => v?.trim() || null),
});

/** POST /reminders/now: remind one handler now of a month's forms. */
export const remindNowBody = z.strictObject({
  period_id: recordId('period_id', 'period_id must be a string: the id of a reporting period.'),
  handler: recordId('handler', "handler must be a string: the handler's id or number."),
});

// ---- Seasons and the calendar -------------------------------------------------------------------------------------

const START_YEAR_WRONG = 'start_year must be a whole year between 2000 and 2200.';

/** POST /seasons: the crop year that starts on 1 September of `start_year`. */
export const seasonBody = z.strictObject({
  start_year: z
    .number({
      error: missingOr(
        'start_year is required: the year the crop year starts (1 September), such as 2027.',
        START_YEAR_WRONG,
      ),
    })
    .int(START_YEAR_WRONG)
    .min(2000, START_YEAR_WRONG)
    .max(2200, START_YEAR_WRONG),
});

const dueDate = (name: string) => isoDate(name, `${name} is required: a date written YYYY-MM-DD.`, '2026-12-10');

/** PATCH /seasons/:id: the year-end forms' due date. */
export const seasonDueDateBody = z.strictObject({ reporting_due_date: dueDate('reporting_due_date') });

/** PATCH /periods/:id: the month's due date. */
export const periodDueDateBody = z.strictObject({ due_date: dueDate('due_date') });

// ---- Users ---------------------------------------------------------------------------------------------------------

export const USER_ROLES = ['handler', 'staff'] as const;
export const EDITABLE_USER_STATUSES = ['active', 'blocked'] as const;
export const MAX_HANDLER_NUMBER_LENGTH = 20;

const HANDLER_NUMBER_WRONG = 'handler_number must be the number of a handler (text), or null.';
/** A handler's number, or null (or '') for none. */
const handlerNumber = z
  .string({ error: HANDLER_NUMBER_WRONG })
  .max(MAX_HANDLER_NUMBER_LENGTH, HANDLER_NUMBER_WRONG)
  .nullable()
  .optional();

/**
 * POST /users. The rules of every new user (username and password rules, a unique address, a handler user's
 * handler) are the server's (workflows/accounts.ts), checked after these.
 */
export const newUserBody = z.strictObject({
  username: requiredText('username', 60),
  first_name: requiredText('first_name', 100),
  last_name: nullableText('last_name', 100),
  email: requiredText('email', 254),
  role: z.enum(USER_ROLES, { error: 'role is required: handler or staff.' }),
  handler_number: handlerNumber,
  password: z
    .string({ error: 'password must be text.' })
    .max(MAX_PASSWORD_LENGTH, 'password must be text.')
    .nullable()
    .optional(),
  job_title: nullableText('job_title', 255),
  phone: nullableText('phone', 60),
});

/** PATCH /users/:id: only the members given change; null (or blank) clears what may be cleared. */
export const userEditBody = z.strictObject({
  first_name: optionalText('first_name', 100),
  last_name: nullableText('last_name', 100),
  email: nullableText('email', 254),
  job_title: nullableText('job_title', 255),
  phone: nullableText('phone', 60),
  handler_number: handlerNumber,
  role: z.enum(USER_ROLES, { error: 'role must be handler or staff.' }).optional(),
  status: z
    .enum(EDITABLE_USER_STATUSES, { error: `status must be one of ${EDITABLE_USER_STATUSES.join(', ')}.` })
    .optional(),
  handler_admin: z.boolean({ error: 'handler_admin must be true or false.' }).optional(),
});

/** POST /users/:id/password-reset, /seasons/:id/current, /close and /reopen take no members (any body is ignored). */

/** POST /account-requests/:id/refuse: an optional reason told to the person (other members are ignored). */
export const MAX_REFUSAL_REASON_LENGTH = 2000;
const REASON_WRONG = `reason must be text of at most ${MAX_REFUSAL_REASON_LENGTH} characters, or null.`;
export const refusalBody = z.object({
  reason: z
    .string({ error: REASON_WRONG })
    .max(MAX_REFUSAL_REASON_LENGTH, REASON_WRONG)
    .nullable()
    .optional()
    .transform((v) => v?.trim() || null),
});

export type PeriodMonthInput = z.input<typeof periodMonthBody>;
export type SeasonIdInput = z.input<typeof seasonIdBody>;
export type PublishInput = z.input<typeof publishBody>;
export type InvoicePaidInput = z.input<typeof invoicePaidBody>;
export type RemindNowInput = z.input<typeof remindNowBody>;
export type SeasonInput = z.input<typeof seasonBody>;
export type SeasonDueDateInput = z.input<typeof seasonDueDateBody>;
export type PeriodDueDateInput = z.input<typeof periodDueDateBody>;
export type NewUserInput = z.input<typeof newUserBody>;
export type UserEditInput = z.input<typeof userEditBody>;
export type RefusalInput = z.input<typeof refusalBody>;

// ---- Queries -------------------------------------------------------------------------------------------------------

/**
 * Query parameters arrive as text, each once (the server refuses a repeated, unknown or overlong one first);
 * these check their form. Whether an id or a handler exists is the server's to check.
 */
const param = z.string().optional();
const oneOf = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values, { error: `${name} must be one of ${values.join(', ')}.` }).optional();
const page = z
  .string()
  .regex(/^[1-9][0-9]{0,5}$/, 'page must be a whole number from 1.')
  .transform(Number)
  .optional();

export const USER_LIST_STATUSES = ['active', 'blocked', 'pending', 'refused'] as const;
export const INVOICE_STATUSES = ['open', 'paid'] as const;

/** A query that takes no parameters. */
export const noQuery = z.strictObject({});

/** GET /users. */
export const userListQuery = z.strictObject({
  q: param,
  handler: param,
  status: oneOf('status', USER_LIST_STATUSES),
  role: oneOf('role', USER_ROLES),
  page,
});

/** Handler lines of a board page when `page` or `per_page` is given (without either: every line), and at most. */
export const BOARD_PAGE_SIZE = 50;
export const MAX_BOARD_PAGE_SIZE = 200;
export const BOARD_SORTS = ['handler_number', '-handler_number'] as const;
export type BoardSort = (typeof BOARD_SORTS)[number];
const PER_PAGE_WRONG = `per_page must be a whole number from 1 to ${MAX_BOARD_PAGE_SIZE}.`;

/** GET /board and /board.csv. */
export const boardQuery = z.strictObject({
  period_id: param,
  season_id: param,
  status: oneOf('status', BOARD_STATUSES),
  handler: param,
  /** Searches handler number and name, case- and accent-insensitive. */
  q: param,
  sort: oneOf('sort', BOARD_SORTS),
  page,
  per_page: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, PER_PAGE_WRONG)
    .transform(Number)
    .refine((n) => n <= MAX_BOARD_PAGE_SIZE, PER_PAGE_WRONG)
    .optional(),
});

/** GET /invoices and /invoices.csv. */
export const invoiceListQuery = z.strictObject({
  period_id: param,
  season_id: param,
  status: oneOf('status', INVOICE_STATUSES),
  handler: param,
});

/** GET /invoices/totals. */
export const invoiceTotalsQuery = z.strictObject({ season_id: z.string({ error: 'season_id is required.' }) });

/** GET /calendar and /reports. */
export const seasonQuery = z.strictObject({ season_id: param });

/** GET /reminders. */
export const reminderListQuery = z.strictObject({
  period_id: param,
  handler: param,
  kind: oneOf('kind', REMINDER_KINDS),
  status: oneOf('status', REMINDER_STATUSES),
  page,
});

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A date (the whole day: from its first second, to its last) or a timestamp, as the ISO text the log stores. */
const bound = (name: 'from' | 'to') =>
  z
    .string()
    .refine(
      (v) => isIsoDate(v) || (TIMESTAMP.test(v) && !Number.isNaN(Date.parse(v))),
      `${name} must be a date (YYYY-MM-DD) or a timestamp (2026-11-22T14:03:00+00:00).`,
    )
    .transform((v) =>
      isIsoDate(v)
        ? `${v}T${name === 'from' ? '00:00:00' : '23:59:59'}+00:00`
        : new Date(v).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    )
    .optional();

/** GET /audit. */
export const auditQuery = z.strictObject({
  handler: param,
  user: param,
  type: param,
  id: param,
  action: param,
  from: bound('from'),
  to: bound('to'),
  page,
});

export type UserListQuery = z.input<typeof userListQuery>;
export type BoardQuery = z.input<typeof boardQuery>;
export type InvoiceListQuery = z.input<typeof invoiceListQuery>;
export type ReminderListQuery = z.input<typeof reminderListQuery>;
export type AuditQuery = z.input<typeof auditQuery>;

// ---- Problems ------------------------------------------------------------------------------------------------------

/**
 * The problems of a request checked against its schema, one per member (the first found), unknown members first,
 * each named as `what` says (a body's field or a query's parameter).
 */
export function requestProblems(
  schema: z.ZodObject,
  result: z.ZodSafeParseResult<unknown>,
  what: 'field' | 'parameter' = 'field',
): FieldProblem[] {
  if (result.success) return [];
  const expected = Object.keys(schema.shape).join(', ') || 'none';
  const unknown: FieldProblem[] = [];
  const byField = new Map<string, string>();
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        unknown.push({ field: key, detail: `${key} is not a ${what} of this request (expected: ${expected}).` });
    } else {
      const field = String(issue.path[0] ?? '');
      if (!byField.has(field)) byField.set(field, issue.message);
    }
  }
  return [...unknown, ...[...byField].map(([field, detail]) => ({ field, detail }))];
}
