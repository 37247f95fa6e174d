import { validateFormAttributes } from '@pecan/contract';
import { lockForTransaction } from '../db/transaction-locks.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import { ApiError, conflict } from '../lib/errors.js';
import { assertOwnHandler, dbOf, insertNode, loadRow, updateRow, type Actor } from './common.js';
import { computedColumns } from './form-figures.js';
import { FORM_TITLES } from './packages.js';
import { certify, createAmendment, unprocessable, VERSIONED_FORMS } from './versioned-forms.js';

const FORM_5 = VERSIONED_FORMS.apc_form_5;

/**
 * Form 5, the year-end inventory: one per handler and season. A POST without `field_amendment_of` starts the
 * season's form (409 when it exists); with it, an amendment as for the monthly forms.
 */
export async function createForm5(a: Actor, input: WriteInput, id?: string): Promise<string> {
  if (input.relationships.field_amendment_of) return createAmendment(a, FORM_5, input, id);
  const seasonId = input.relationships.field_season?.id;
  if (!seasonId)
    throw unprocessable([
      { field: 'field_season', message: 'Name the season of the year-end report in field_season.' },
    ]);
  // A handler user files for its own handler; naming another one is refused, not quietly replaced.
  if (input.values.handler_id !== undefined && input.values.handler_id !== null)
    assertOwnHandler(a.viewer, input.values.handler_id, 'forms');
  const handlerId = a.viewer.handlerId ?? (input.values.handler_id as string | undefined);
  if (!handlerId)
    throw unprocessable([{ field: 'field_handler', message: 'Staff name the handler of the form in field_handler.' }]);
  assertOwnHandler(a.viewer, handlerId, 'forms');
  const season = await loadRow(dbOf(a), 'seasons', seasonId).catch(() => {
    throw new ApiError(422, 'The season named in field_season does not exist.', {
      source: { pointer: '/data/relationships/field_season' },
    });
  });
  // Nothing in the schema stops a second form of the season: two POSTs at once (PostgreSQL runs them side by side)
  // would both find none and both insert. The second waits here, then finds the first (409 below).
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`form5:${handlerId}:${seasonId}`]);
  const existing = await dbOf(a)
    .selectFrom('apc_form_5')
    .select('id')
    .where('handler_id', '=', handlerId)
    .where('season_id', '=', seasonId)
    .executeTakeFirst();
  if (existing) throw conflict('This season already has a year-end form: edit it, or amend it once certified.');
  const errors = validateFormAttributes('apc_form_5', input.attributes);
  if (errors.length > 0) throw unprocessable(errors);
  const handler = await loadRow(dbOf(a), 'handlers', handlerId);
  const { certified: _c, certification_name: _n, certification_title: _t, ...values } = input.values;
  const newId = await insertNode(
    a,
    'apc_form_5',
    {
      ...values,
      title: `${FORM_TITLES.apc_form_5}-${String(handler.handler_number)}-${String(season.title)}`,
      handler_id: handlerId,
      season_id: seasonId,
      form_status: 'draft',
      amendment_number: 0,
    },
    id,
  );
  const row = await loadRow(dbOf(a), 'apc_form_5', newId);
  const computed = await computedColumns(a, 'apc_form_5', row);
  const changed = await updateRow(a, 'apc_form_5', row, computed);
  if (input.attributes.field_certified === true) await certify(a, FORM_5, { ...row, ...computed, changed }, input);
  return newId;
}

/** The handler and season of a form 5 are fixed once it exists. */
export function assertScopeUnchanged(row: Row, input: WriteInput): void {
  for (const [rel, column] of [
    ['field_season', 'season_id'],
    ['field_handler', 'handler_id'],
  ] as const) {
    const linkage = input.relationships[rel];
    if (linkage !== undefined && linkage?.id !== row[column])
      throw unprocessable([{ field: rel, message: `${rel} cannot change.` }]);
  }
}
