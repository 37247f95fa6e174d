import { z } from 'zod';
import { isIsoDate, isPeriodMonth } from '../calendar/iso-date.js';
import { parseMoney } from '../money/money.js';
import { parsed, rejected, type ParseResult } from '../money/parse-result.js';
import { parsePrice } from '../money/price.js';
import { parseRatio } from '../money/ratio.js';
import { isCountryCode, UNITED_STATES } from '../reference/countries.js';
import { varietyKey } from '../reference/varieties.js';
import { PECAN_TYPES, type PecanType } from '../assessment/rates.js';
import {
  MAX_POUNDS,
  MAX_TEXT_LENGTH,
  MAX_TRANSFER_ROWS,
  MAX_VARIETY_NAME_LENGTH,
  MAX_VARIETY_ROWS,
  RESPONSIBLE_HANDLERS,
} from './limits.js';

/**
 * One zod schema per kind of value, for one attribute: the attribute's name is in every message, because the
 * message becomes the `detail` of that attribute's 422 error as it is. Each schema's output is the value as stored
 * (money in cents, ratios in ten-thousandths, text trimmed).
 */
type Parser<T> = (input: unknown) => ParseResult<T>;

/** A zod schema from one of our parsers, so money and dates are parsed by the same code everywhere. */
function parsedBy<T>(attribute: string, parse: Parser<T>): z.ZodType<T, unknown> {
  return z.unknown().transform((input, context) => {
    const result = parse(input);
    if (result.ok) return result.value;
    context.addIssue({ code: 'custom', message: `${attribute} ${result.message}`, input });
    return z.NEVER;
  });
}

export function poundsSchema(attribute: string): z.ZodType<number, unknown> {
  const message = `${attribute} must be a whole number of pounds from 0 to ${MAX_POUNDS.toLocaleString('en-US')}`;
  return z
    .number({ error: message })
    .int({ error: message })
    .min(0, { error: message })
    .max(MAX_POUNDS, { error: message });
}

export const moneySchema = (attribute: string): z.ZodType<number, unknown> =>
  parsedBy(attribute, (input) => parseMoney(input));

export const ratioSchema = (attribute: string): z.ZodType<number, unknown> =>
  parsedBy(attribute, (input) => parseRatio(input));

export const priceSchema = (attribute: string): z.ZodType<number, unknown> =>
  parsedBy(attribute, (input) => parsePrice(input));

export const dateSchema = (attribute: string): z.ZodType<string, unknown> =>
  parsedBy(attribute, (input) =>
    isIsoDate(input) ? parsed(input) : rejected('must be a real calendar date written YYYY-MM-DD'),
  );

export const monthSchema = (attribute: string): z.ZodType<string, unknown> =>
  parsedBy(attribute, (input) => (isPeriodMonth(input) ? parsed(input) : rejected('must be a month written YYYY-MM')));

export const boolSchema = (attribute: string): z.ZodType<boolean, unknown> =>
  z.boolean({ error: `${attribute} must be true or false` });

/** Trimmed text; `required` refuses the empty string. */
export function textSchema(
  attribute: string,
  maxLength = MAX_TEXT_LENGTH,
  required = false,
): z.ZodType<string, unknown> {
  const message = required
    ? `${attribute} must be text of 1 to ${maxLength} characters`
    : `${attribute} must be text of at most ${maxLength} characters`;
  return z
    .string({ error: message })
    .trim()
    .min(required ? 1 : 0, { error: message })
    .max(maxLength, { error: message });
}

/** An ISO 3166-1 alpha-2 code, upper case; never US, since these are origins outside the US or export destinations. */
export const foreignCountrySchema = (attribute: string): z.ZodType<string, unknown> =>
  parsedBy(attribute, (input) => {
    if (!isCountryCode(input)) return rejected('must be an ISO 3166-1 alpha-2 country code in capitals, such as "MX"');
    if (input === UNITED_STATES) return rejected('must be a country other than the United States (US)');
    return parsed(input);
  });

export const responsibleHandlerSchema = (attribute: string): z.ZodType<string, unknown> =>
  z.enum(RESPONSIBLE_HANDLERS, { error: `${attribute} must be "transferring" or "receiving"` });

export interface VarietyRow {
  variety: string;
  pounds: number;
}

/** [{ variety, pounds }]: at most 200 rows, names 1..100 characters, no name twice (ignoring case and spaces). */
export function varietyListSchema(attribute: string): z.ZodType<VarietyRow[], unknown> {
  const row = z.strictObject(
    {
      variety: textSchema(`${attribute}: each variety`, MAX_VARIETY_NAME_LENGTH, true),
      pounds: poundsSchema(`${attribute}: each row's pounds`),
    },
    { error: `${attribute} rows must be objects { "variety": name, "pounds": number }` },
  );
  return z
    .array(row, { error: `${attribute} must be a list of { "variety", "pounds" } rows` })
    .max(MAX_VARIETY_ROWS, { error: `${attribute} must have at most ${MAX_VARIETY_ROWS} rows` })
    .superRefine((rows, context) => {
      const seen = new Set<string>();
      rows.forEach((item, index) => {
        const key = varietyKey(item.variety);
        if (seen.has(key)) {
          context.addIssue({
            code: 'custom',
            path: [index, 'variety'],
            message: `${attribute} lists "${item.variety}" twice`,
          });
        }
        seen.add(key);
      });
    });
}

/** One line of form 1's inter-handler shipments: inshell pounds of one type shipped to one receiving handler. */
export interface TransferRow {
  receiving_handler: string;
  pecan_type: PecanType;
  pounds: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** [{ receiving_handler, pecan_type, pounds }]: at most 200 lines, a handler id, a type, no handler and type twice. */
export function transferListSchema(attribute: string): z.ZodType<TransferRow[], unknown> {
  const row = z.strictObject(
    {
      receiving_handler: z
        .string({ error: `${attribute}: each line's receiving_handler must be a handler id` })
        .regex(UUID, { error: `${attribute}: each line's receiving_handler must be a handler id` }),
      pecan_type: z.enum(PECAN_TYPES, {
        error: `${attribute}: each line's pecan_type must be improved, native or substandard`,
      }),
      pounds: poundsSchema(`${attribute}: each line's pounds`),
    },
    { error: `${attribute} lines must be objects { "receiving_handler", "pecan_type", "pounds" }` },
  );
  return z
    .array(row, { error: `${attribute} must be a list of { "receiving_handler", "pecan_type", "pounds" } lines` })
    .max(MAX_TRANSFER_ROWS, { error: `${attribute} must have at most ${MAX_TRANSFER_ROWS} lines` })
    .superRefine((rows, context) => {
      const seen = new Set<string>();
      rows.forEach((item, index) => {
        const key = `${item.receiving_handler.toLowerCase()} ${item.pecan_type}`;
        if (seen.has(key))
          context.addIssue({
            code: 'custom',
            path: [index, 'pecan_type'],
            message: `${attribute} lists the same handler and type twice`,
          });
        seen.add(key);
      });
    });
}
