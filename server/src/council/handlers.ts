import { sql } from 'kysely';
import { z } from 'zod';
import type { Row, WriteContext, WriteInput } from '../jsonapi/resource.js';
import { ApiError } from '../lib/errors.js';

/**
 * The checks on a handler record that staff create or edit through the JSON:API (`POST/PATCH /jsonapi/node/handler`):
 * every problem at once, one 422 error per attribute with its `source.pointer`, so the council console shows each
 * at its field. Without them a taken handler number was a bare 409 and a missing one a 422 naming no field.
 */
const HANDLER_STATUSES = ['active', 'inactive'];
const NUMBER = /^[A-Za-z0-9-]{1,20}$/;
const EMAIL = z.email();
const MAX = { title: 200, address: 1000, phone: 60, email: 254, website: 500 } as const;

const pointer = (attribute: string) => `/data/attributes/${attribute}`;
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The values as given, trimmed; `row` is the stored handler when editing. Throws one 422 with every problem. */
export async function checkHandlerInput(w: WriteContext, input: WriteInput, row: Row | null): Promise<void> {
  const v = input.values;
  const problems: Array<{ attribute: string; detail: string }> = [];
  const problem = (attribute: string, detail: string) => problems.push({ attribute, detail });
  for (const [column, value] of Object.entries(v)) if (typeof value === 'string') v[column] = value.trim();

  if (row === null || 'title' in v) {
    if (blank(v.title)) problem('title', "The handler's name is required.");
    else if (String(v.title).length > MAX.title)
      problem('title', `The name must be at most ${MAX.title} characters long.`);
  }
  if (row === null || 'handler_number' in v) {
    const number = v.handler_number;
    if (blank(number)) problem('field_handler_number', 'The handler number is required.');
    else if (!NUMBER.test(String(number)))
      problem('field_handler_number', 'A handler number is 1 to 20 letters, digits or dashes, such as 104.');
    else {
      let q = w.ctx.db
        .selectFrom('handlers')
        .select('id')
        .where(sql<string>`lower(handler_number)`, '=', String(number).toLowerCase());
      if (row) q = q.where('id', '<>', String(row.id));
      if (await q.executeTakeFirst())
        problem('field_handler_number', `Another handler already has the number ${String(number)}.`);
    }
  }
  if (v.handler_status !== undefined && !HANDLER_STATUSES.includes(String(v.handler_status))) {
    problem('field_handler_status', 'field_handler_status must be "active" or "inactive".');
  }
  for (const [column, attribute] of [
    ['address', 'field_address'],
    ['phone', 'field_phone'],
    ['email', 'field_email'],
    ['website', 'field_website'],
  ] as const) {
    if (!(column in v)) continue;
    if (blank(v[column])) {
      v[column] = null;
      continue;
    }
    const text = String(v[column]);
    if (text.length > MAX[column]) problem(attribute, `At most ${MAX[column]} characters.`);
    else if (column === 'email' && !EMAIL.safeParse(text).success)
      problem(attribute, 'An e-mail address, such as office@example.com.');
    else if (column === 'website' && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(text))
      problem(attribute, 'A web address starting with https://, such as https://example.com.');
  }
  if (problems.length > 0)
    throw ApiError.many(
      422,
      problems.map((p) => ({ detail: p.detail, source: { pointer: pointer(p.attribute) } })),
    );
}
