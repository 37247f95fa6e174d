import { centsToDecimal, parseDecimalToUnits } from './decimal.js';
import type { Dialect } from '../db/database.js';

/**
 * How a column's raw value becomes an API value and back.
 * - money: integer cents <-> "1234.50"; ratio: integer ten-thousandths <-> "0.4800"
 * - bool: 0/1 (SQLite) or true/false (PostgreSQL) <-> true/false
 * - json: JSON text <-> value
 */
export type Codec = 'string' | 'int' | 'bool' | 'money' | 'ratio' | 'json' | 'date' | 'month' | 'datetime';

export class CodecError extends Error {}

export function toApi(codec: Codec, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (codec) {
    case 'bool':
      return raw === true || raw === 1 || raw === '1';
    case 'int':
      return Number(raw);
    case 'money':
      return centsToDecimal(BigInt(raw as number), 2);
    case 'ratio':
      return centsToDecimal(BigInt(raw as number), 4);
    case 'json':
      return typeof raw === 'string' ? JSON.parse(raw) : raw;
    default:
      return raw;
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isRealDate(text: string): boolean {
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** An API value (from a body) to the column's raw value. Throws CodecError with a message for the user. */
export function fromApi(codec: Codec, value: unknown, dialect: Dialect): unknown {
  if (value === null) return null;
  switch (codec) {
    case 'bool':
      if (typeof value !== 'boolean') throw new CodecError('must be true or false');
      return dialect === 'sqlite' ? (value ? 1 : 0) : value;
    case 'int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new CodecError('must be a whole number');
      return value;
    case 'money':
      return Number(parseDecimal(value, 2));
    case 'ratio':
      return Number(parseDecimal(value, 4));
    case 'json':
      return JSON.stringify(value);
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value) || !isRealDate(value))
        throw new CodecError('must be a date YYYY-MM-DD');
      return value;
    case 'month':
      if (typeof value !== 'string' || !MONTH.test(value)) throw new CodecError('must be a month YYYY-MM');
      return value;
    case 'datetime':
      if (typeof value !== 'string' || !DATETIME.test(value)) throw new CodecError('must be an ISO 8601 date and time');
      return value;
    default:
      if (typeof value !== 'string') throw new CodecError('must be text');
      return value;
  }
}

function parseDecimal(value: unknown, places: number): bigint {
  if (typeof value !== 'string')
    throw new CodecError(`must be a decimal string such as "${places === 2 ? '1234.50' : '0.4800'}"`);
  const units = parseDecimalToUnits(value, places);
  if (units === null) throw new CodecError(`must be a decimal string with at most ${places} places`);
  return units;
}

/** Beyond 2^53 a number loses digits (and beyond 2^63 no column holds it): refused rather than compared wrongly. */
function safeInteger(n: number): number {
  if (!Number.isSafeInteger(n)) throw new CodecError('is out of range');
  return n;
}

/** A filter value from the query string to the column's raw value; null when it cannot be one. */
export function fromQuery(codec: Codec, value: string, dialect: Dialect): unknown {
  switch (codec) {
    case 'bool': {
      const v = value.toLowerCase();
      if (!['1', '0', 'true', 'false'].includes(v)) throw new CodecError('must be 1, 0, true or false');
      const b = v === '1' || v === 'true';
      return dialect === 'sqlite' ? (b ? 1 : 0) : b;
    }
    case 'int':
      if (!/^-?\d+$/.test(value)) throw new CodecError('must be a whole number');
      return safeInteger(Number(value));
    case 'money':
      return safeInteger(Number(parseDecimal(value, 2)));
    case 'ratio':
      return safeInteger(Number(parseDecimal(value, 4)));
    default:
      return value;
  }
}
