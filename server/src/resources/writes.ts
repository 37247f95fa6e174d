import { checkHandlerInput } from '../council/handlers.js';
import type { Row, WriteContext, WriteHandlers, WriteInput } from '../jsonapi/resource.js';
import { ApiError } from '../lib/errors.js';
import { assertNotStale, insertNode, updateRow, type Actor } from '../workflows/common.js';
import { createForm4, updateForm4 } from '../workflows/form4.js';
import { assertScopeUnchanged, createForm5 } from '../workflows/form5.js';
import {
  confirmMembership,
  createPacketConfirmation,
  updatePacketConfirmation,
} from '../workflows/packet-confirmations.js';
import { createSubRecord, deleteSubRecord, updateSubRecord, type SubRecordTable } from '../workflows/sub-records.js';
import { createAmendment, updateDraft, VERSIONED_FORMS } from '../workflows/versioned-forms.js';

/**
 * What each type's writes do. Who may do them is not decided here: write-policy.ts declares it and write-guard.ts
 * checks it before any of these runs (resources/index.ts wraps every handler), so these only carry out a write the
 * policy allowed. A type without a handler for a method answers 405.
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
    await confirmMembership(actor(w), field.replace('field_form_', 'apc_form_'), 'package_id', row.id, ids);
  },
};

export const packetConfirmationWrites: WriteHandlers = {
  create: (w, input, id) => createPacketConfirmation(actor(w), input, id),
  update: (w, row, input) => updatePacketConfirmation(actor(w), row, input),
};

/** Handler records; a handler's own packet confirmations added to it are already linked: only a check. */
export const handlerWrites: WriteHandlers = {
  create: async (w, input, id) => {
    await checkHandlerInput(w, input, null);
    return staffCreate(w, input, id);
  },
  // Staff deactivate a handler with field_handler_status 'inactive': opening a month then makes it no package.
  update: async (w, row, input) => {
    await checkHandlerInput(w, input, row);
    return staffUpdate(w, row, input);
  },
  addToRelationship: async (w, row, field, ids) => {
    if (field !== 'field_handler_packet_confirms') throw new ApiError(405, `${field} is filled by the server.`);
    await confirmMembership(actor(w), 'handler_packet_confirmations', 'handler_id', row.id, ids);
  },
};

/** A user's profile fields. */
export const userWrites: WriteHandlers = {
  update: async (w, row, input) => {
    assertNotStale(row, input.meta);
    await updateRow(actor(w), 'users', row, input.values);
  },
};

async function staffCreate(w: WriteContext, input: WriteInput, id?: string): Promise<string> {
  return insertNode(actor(w), w.def.table, input.values, id);
}

async function staffUpdate(w: WriteContext, row: Row, input: WriteInput): Promise<void> {
  assertNotStale(row, input.meta);
  await updateRow(actor(w), w.def.table, row, input.values);
}

/** Reference data staff keep (seasons, periods, varieties). */
export const staffWrites: WriteHandlers = { create: staffCreate, update: staffUpdate };
