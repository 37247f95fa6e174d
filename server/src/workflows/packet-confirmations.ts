import { lockForTransaction } from '../db/transaction-locks.js';
import type { Row, WriteInput } from '../jsonapi/resource.js';
import { ApiError, conflict } from '../lib/errors.js';
import {
  assertNotStale,
  assertOwnHandler,
  dbBool,
  dbOf,
  rowsDbOf,
  insertNode,
  loadRow,
  nowIso,
  updateRow,
  type Actor,
} from './common.js';
import { unprocessable } from './versioned-forms.js';

/**
 * The handler packet confirmation: at most one per handler and season (also a unique constraint, so two racing
 * POSTs cannot both win). The certification time is the server's; the name is the confirming user's.
 */
export async function createPacketConfirmation(a: Actor, input: WriteInput, id?: string): Promise<string> {
  const handlerId = input.relationships.field_handler?.id;
  const seasonId = input.relationships.field_season?.id;
  const errors = [];
  if (!handlerId) errors.push({ field: 'field_handler', message: 'Missing handler ID.' });
  if (!seasonId) errors.push({ field: 'field_season', message: 'Missing current season ID.' });
  if (errors.length > 0)
    throw ApiError.many(
      422,
      errors.map((e) => ({ detail: e.message, source: { pointer: `/data/relationships/${e.field}` } })),
    );
  assertOwnHandler(a.viewer, handlerId, 'packet confirmations');
  const db = dbOf(a);
  const handler = await loadRow(db, 'handlers', handlerId);
  const season = await loadRow(db, 'seasons', seasonId).catch(() => {
    throw unprocessable([{ field: 'field_season', message: 'Current season is not available.' }]);
  });
  // The unique constraint alone would refuse the second of two POSTs at once on PostgreSQL with the generic
  // duplicate message; waiting for the first lets it find that one and answer as SQLite does.
  await lockForTransaction(a.ctx.db, a.ctx.dialect, [`packet-confirmation:${handlerId!}:${seasonId!}`]);
  const existing = await db
    .selectFrom('handler_packet_confirmations')
    .select('id')
    .where('handler_id', '=', handlerId!)
    .where('season_id', '=', seasonId!)
    .executeTakeFirst();
  if (existing)
    throw conflict(`This handler already has a packet confirmation for ${String(season.title)}: update it instead.`);
  return insertNode(
    a,
    'handler_packet_confirmations',
    {
      title: `Handler Packet Confirmation-${String(handler.handler_number)}-${String(season.title)}`,
      handler_id: handlerId,
      season_id: seasonId,
      handler_packet_confirm: input.values.handler_packet_confirm ?? dbBool(a, false),
      certification_name: input.values.certification_name ?? a.viewer.name,
      certification_datetime: nowIso(a),
    },
    id,
  );
}

export async function updatePacketConfirmation(a: Actor, row: Row, input: WriteInput): Promise<void> {
  assertOwnHandler(a.viewer, row.handler_id, 'packet confirmations');
  assertNotStale(row, input.meta);
  for (const [rel, column] of [
    ['field_handler', 'handler_id'],
    ['field_season', 'season_id'],
  ] as const) {
    if (input.relationships[rel] !== undefined && input.relationships[rel]?.id !== row[column]) {
      throw ApiError.many(422, [
        { detail: `${rel} cannot change.`, source: { pointer: `/data/relationships/${rel}` } },
      ]);
    }
  }
  const { handler_id: _h, season_id: _s, certification_datetime: _d, ...values } = input.values;
  await updateRow(a, 'handler_packet_confirmations', row, {
    ...values,
    certification_datetime: nowIso(a),
    certification_name: values.certification_name ?? a.viewer.name,
  });
}

/**
 * POST .../relationships/{field} of a to-many relationship whose rows point at their owner (a package's forms, a
 * handler's confirmations): the rows are already there, so the call only checks that they are and adds nothing.
 */
export async function confirmMembership(
  a: Actor,
  table: string,
  ownerColumn: string,
  ownerId: unknown,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await rowsDbOf(a).selectFrom(table).select(['id', ownerColumn]).where('id', 'in', ids).execute();
  const found = new Map(rows.map((r) => [r.id as string, r[ownerColumn]]));
  const foreign = ids.filter((id) => found.get(id) !== ownerId);
  if (foreign.length > 0)
    throw new ApiError(422, `These do not belong here and cannot be added: ${foreign.join(', ')}.`, {
      source: { pointer: '/data' },
    });
}
