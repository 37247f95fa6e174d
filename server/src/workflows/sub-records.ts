import { DUPLICATE_EXPORT_COUNTRY, exportCountriesSchema, validateFormAttributes } from '@pecan/contract';
import { lockForTransaction } from '../db/transaction-locks.js';
import { ApiError } from '../lib/errors.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import {
  assertDraft,
  assertNotStale,
  assertOwnHandler,
  dbOf,
  deleteRow,
  insertNode,
  loadRow,
  updateRow,
  type Actor,
} from './common.js';
import { recomputeDraft, unprocessable, VERSIONED_FORMS } from './versioned-forms.js';

/**
 * Rows of forms 2 (pecans purchased outside the US) and 3 (exports by country). They are added, changed and
 * removed only while their form is a draft, and every change recomputes the form's totals at once.
 */
export type SubRecordTable = 'pecans_purchased_non_us' | 'export_by_country';
const PARENT: Record<SubRecordTable, 'apc_form_2' | 'apc_form_3'> = {
  pecans_purchased_non_us: 'apc_form_2',
  export_by_country: 'apc_form_3',
};

/** The row's own fields, without its place in the list. */
function rowFields(input: WriteInput): Record<string, unknown> {
  const { field_position: _position, ...fields } = input.attributes;
  return fields;
}

/**
 * Form 3 lists a country once: the form's rows with this one written (a new row last, a changed row in its place)
 * must pass the contract's rule, else 422 at the row's country.
 */
async function assertCountryOnce(a: Actor, table: SubRecordTable, formId: unknown, country: unknown, rowId?: unknown) {
  if (table !== 'export_by_country' || typeof country !== 'string') return;
  const others = await dbOf(a)
    .selectFrom('export_by_country')
    .select(['id', 'country'])
    .where('form_id', '=', formId as string)
    .execute();
  const rows = [...others.filter((r) => r.id !== rowId).map((r) => ({ country: r.country })), { country }];
  if (!exportCountriesSchema.safeParse(rows).success)
    throw unprocessable([{ field: 'field_country', message: DUPLICATE_EXPORT_COUNTRY }]);
}

/**
 * Every row write recomputes the whole draft under its optimistic check, and a new row goes last (max position + 1,
 * no unique index): two writes to one draft at once on PostgreSQL would refuse one another with 409 though they
 * changed different rows, or give two rows one position. Each takes the draft's lock first, so the second waits and
 * reads what the first wrote (SQLite runs writes one at a time already).
 */
async function draftParent(a: Actor, table: SubRecordTable, formId: unknown): Promise<Row> {
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`form-draft:${PARENT[table]}:${String(formId)}`]);
  const form = await loadRow(dbOf(a), PARENT[table], formId).catch(() => {
    throw new ApiError(422, 'The form named in field_form does not exist.', {
      source: { pointer: '/data/relationships/field_form' },
    });
  });
  assertOwnHandler(a.viewer, form.handler_id, 'forms');
  assertDraft(form);
  return form;
}

export async function createSubRecord(
  a: Actor,
  table: SubRecordTable,
  input: WriteInput,
  id?: string,
): Promise<string> {
  if (!input.relationships.field_form)
    throw unprocessable([{ field: 'field_form', message: 'Name the form this row belongs to in field_form.' }]);
  const form = await draftParent(a, table, input.relationships.field_form.id);
  const errors = validateFormAttributes(table, rowFields(input), { mode: 'complete' });
  if (errors.length > 0) throw unprocessable(errors);
  await assertCountryOnce(a, table, form.id, input.values.country);
  const last = await dbOf(a)
    .selectFrom(table)
    .select((eb) => eb.fn.max('position').as('p'))
    .where('form_id', '=', form.id as string)
    .executeTakeFirst();
  const newId = await insertNode(
    a,
    table,
    {
      position: Number(last?.p ?? -1) + 1,
      ...input.values,
      form_id: form.id,
      handler_id: form.handler_id,
      title:
        table === 'export_by_country'
          ? `Export to ${String(input.values.country ?? '')}`
          : `Purchase from ${String(input.values.country_of_origin ?? '')}`,
    },
    id,
  );
  await recomputeDraft(a, VERSIONED_FORMS[PARENT[table]], String(form.id));
  return newId;
}

export async function updateSubRecord(a: Actor, table: SubRecordTable, row: Row, input: WriteInput): Promise<void> {
  if (input.relationships.field_form && input.relationships.field_form.id !== row.form_id) {
    throw unprocessable([{ field: 'field_form', message: 'A row cannot move to another form.' }]);
  }
  await draftParent(a, table, row.form_id);
  assertNotStale(row, input.meta);
  const errors = validateFormAttributes(table, rowFields(input));
  if (errors.length > 0) throw unprocessable(errors);
  await assertCountryOnce(a, table, row.form_id, input.values.country, row.id);
  await updateRow(a, table, row, input.values);
  await recomputeDraft(a, VERSIONED_FORMS[PARENT[table]], String(row.form_id));
}

export async function deleteSubRecord(a: Actor, table: SubRecordTable, row: Row): Promise<void> {
  await draftParent(a, table, row.form_id);
  await deleteRow(a, table, row);
  await recomputeDraft(a, VERSIONED_FORMS[PARENT[table]], String(row.form_id));
}
