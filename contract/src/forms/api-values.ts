import { formatCents } from '../money/money.js';
import { formatPrice } from '../money/price.js';
import { formatRatio } from '../money/ratio.js';
import { attributeName } from './attribute-names.js';
import { columnOf, FORM_FIELDS, type FieldDef, type FormBundle } from './fields.js';

/**
 * Stored values (database columns) to API attribute values: cents -> "1234.50", ten-thousandths -> "0.4800",
 * the variety list's JSON text -> an array, SQLite's 0/1 -> boolean, PostgreSQL's bigint strings -> numbers.
 * The inverse direction is parseFormAttributes, which validates as it converts.
 */
export function apiValueOf(field: FieldDef, stored: unknown): unknown {
  if (stored === null || stored === undefined) return isList(field) ? [] : null;
  switch (field.kind) {
    case 'pounds':
      return Number(stored);
    case 'money':
      return formatCents(BigInt(stored as number | string | bigint));
    case 'ratio':
      return formatRatio(BigInt(stored as number | string | bigint));
    case 'price':
      return formatPrice(BigInt(stored as number | string | bigint));
    case 'bool':
      return stored === true || stored === 1 || stored === '1' || stored === 'true';
    case 'varietyList':
    case 'transferList':
      return typeof stored === 'string' ? JSON.parse(stored) : stored;
    default:
      return stored;
  }
}

const isList = (field: FieldDef): boolean => field.kind === 'varietyList' || field.kind === 'transferList';

/** A stored row (columns named by columnOf) as API attributes, every field of the bundle included. */
export function apiAttributesOf(bundle: FormBundle, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    FORM_FIELDS[bundle].map((field) => [attributeName(field), apiValueOf(field, row[columnOf(field)])]),
  );
}
