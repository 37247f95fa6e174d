import { isStaff } from '../context.js';
import { checkHandlerInput } from '../council/handlers.js';
import type { Row, WriteContext, WriteHandlers, WriteInput } from '../jsonapi/resource.js';
import { ApiError, forbidden } from '../plugins/errors.js';
import { assertNotStale, assertStaff, insertNode, updateRow, type Actor } from '../workflows/common.js';
import { createForm4, updateForm4 } from '../workflows/form4.js';
import { assertScopeUnchanged, createForm5 } from '../workflows/form5.js';
import { confirmMembership, createPacketConfirmation, updatePacketConfirmation } from '../workflows/packet-confirmations.js';
import { createSubRecord, deleteSubRecord, updateSubRecord, type SubRecordTable } from '../workflows/sub-records.js';
import { createAmendment, updateDraft, VERSIONED_FORMS } from '../workflows/versioned-forms.js';

/**
 * What each type allows to be written, and by whom: the contract's rules ("a handler user writes its own draft
 * forms, their sub-records, certification, amendments, its packet confirmations, forms 4 it transfers, its own
 * profile; nothing else"). A type without a handler for a method answers 405.
 */
const actor = (w: WriteContext): Actor => ({ ctx: w.ctx, viewer: w.viewer });

export function monthlyFormWrites(bundle: 'apc_form_1' | 'apc_form_2' | 'apc_form_3'): WriteHandlers {
  const form = VERSIONED_FORMS[bundle];
  return {
    create: (w, input, id) => createAmendment(actor(w), form, input, id),
    update: (w, row, input) => updateDraft(actor(w), form, row, input),
  };
}

export const form5Writes: WriteHandlers = {
  create: (w, input, id) => createForm5(actor(w), input, id),
  update: async (w, row, input) => {
    assertScopeUnchanged(row, input);
    await updateDraft(actor(w), VERSIONED_FORMS.apc_form_5, row, input);
  },
};

export const form4Writes: WriteHandlers = {
  create: (w, input, id) => createForm4(actor(w), input, id),
  update: (w, row, input) => updateForm4(actor(w), row, input),
};

export function subRecordWrites(table: SubRecordTable): WriteHandlers {
  return {
    create: (w, input, id) => createSubRecord(actor(w), table, input, id),
    update: (w, row, input) => updateSubRecord(actor(w), table, row, input),
    delete: (w, row) => deleteSubRecord(actor(w), table, row),
  };
}

export const packageWrites: WriteHandlers = {
  addToRelationship: async (w, row, field, ids) => {
    if (!isStaff(w.viewer) && row.handler_id !== w.viewer.handlerId) throw forbidden('You can only change your own packages.');
    await confirmMembership(actor(w), field.replace('field_form_', 'apc_form_'), 'package_id', row.id, ids);
  },
};

export const packetConfirmationWrites: WriteHandlers = {
  create: (w, input, id) => createPacketConfirmation(actor(w), input, id),
  update: (w, row, input) => updatePacketConfirmation(actor(w), row, input),
};

/** Staff keep handlers; a handler's own users add their packet confirmations to it (already linked: a check). */
export const handlerWrites: WriteHandlers = {
  create: async (w, input, id) => { assertStaff(w.viewer, 'create handler records'); await checkHandlerInput(w, input, null); return staffCreate(w, input, id); },
  // Staff deactivate a handler with field_handler_status 'inactive': opening a month then makes it no package.
  update: async (w, row, input) => { assertStaff(w.viewer, 'change handler records'); await checkHandlerInput(w, input, row); return staffUpdate(w, row, input); },
  addToRelationship: async (w, row, field, ids) => {
    if (!isStaff(w.viewer) && row.id !== w.viewer.handlerId) throw forbidden('You can only change your own handler.');
    if (field !== 'field_handler_packet_confirms') throw new ApiError(405, `${field} is filled by the server.`);
    await confirmMembership(actor(w), 'handler_packet_confirmations', 'handler_id', row.id, ids);
  },
};

export const MAIL_NOT_PATCHABLE = 'The e-mail address cannot be changed here: use POST /api/account/email with your current password '
  + 'and the new address (the profile page\'s "Change e-mail address"); it changes when the link mailed to the new address is opened. '
  + 'Council staff change other users\' addresses in the council console.';

/** Oneself, for the profile fields; staff, for anyone. */
export const userWrites: WriteHandlers = {
  update: async (w, row, input) => {
    if (!isStaff(w.viewer) && row.id !== w.viewer.userId) throw forbidden('You can only change your own profile.');
    // An address changes only through its own flow (accounts/email-change.ts), never by a plain PATCH.
    if ('mail' in input.values) throw ApiError.many(422, [{ detail: MAIL_NOT_PATCHABLE, source: { pointer: '/data/attributes/mail' } }]);
    assertNotStale(row, input.meta);
    await updateRow(actor(w), 'users', row, input.values);
  },
};

async function staffCreate(w: WriteContext, input: WriteInput, id?: string): Promise<string> {
  assertStaff(w.viewer, `create ${w.def.bundle} records`);
  return insertNode(actor(w), w.def.table, input.values, id);
}

async function staffUpdate(w: WriteContext, row: Row, input: WriteInput): Promise<void> {
  assertStaff(w.viewer, `change ${w.def.bundle} records`);
  assertNotStale(row, input.meta);
  await updateRow(actor(w), w.def.table, row, input.values);
}

/** Reference data staff keep (seasons, periods, varieties). */
export const staffWrites: WriteHandlers = { create: staffCreate, update: staffUpdate };
