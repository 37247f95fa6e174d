import { queryOptions } from '@tanstack/react-query';
import { DrupalJsonApiParams, jsonApi, ref } from '../../../lib/jsonapi/client';
import { confirmationKey } from '../../../lib/query-keys';
import { firstOf } from '../../../lib/jsonapi/deserialize';
import { ApiError } from '../../../lib/http/errors';
import { attr, isoTimestamp, type ApiEntity } from '../../../lib/portal/entities';
import type { Season } from '../../../lib/portal/seasons';

type PacketConfirmation = ApiEntity<'node--handler_packet_confirmation'>;

/** Spec section 8: the confirmation's own messages. */
export class ConfirmationError extends Error {}

const statusOf = (error: unknown): number | string => (error instanceof ApiError ? error.status : 'network');

export function confirmationParams(handlerId: string, seasonId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_season.id', seasonId)
    .addPageLimit(1);
}

/** GET /jsonapi/node/handler_packet_confirmation for one handler and season (page limit 1). */
export async function findConfirmation(
  handlerId: string,
  seasonId: string,
  signal?: AbortSignal,
): Promise<PacketConfirmation | null> {
  try {
    const doc = await jsonApi.request('/jsonapi/node/handler_packet_confirmation', {
      params: confirmationParams(handlerId, seasonId),
      signal,
    });
    return firstOf<PacketConfirmation>(doc);
  } catch (error) {
    throw new ConfirmationError(`Failed to search existing confirmations: ${statusOf(error)}`);
  }
}

/** The key is the one the sign-in's batch seeds (lib/query-keys.ts). */
export const confirmationQuery = (handlerId: string, seasonId: string) =>
  queryOptions({
    queryKey: confirmationKey(handlerId, seasonId),
    queryFn: ({ signal }) => findConfirmation(handlerId, seasonId, signal),
    // Deserialized JSON:API graphs have cycles: structural sharing would walk them without end.
    structuralSharing: false,
  });

export interface ConfirmInput {
  handler: ApiEntity<'node--handler'> | null | undefined;
  handlerId: string | null | undefined;
  handlerNumber: string | null | undefined;
  season: Season | null | undefined;
  username: string;
}

/**
 * The packet confirmation (spec section 4): with none for the handler and season, POST one and append it to the
 * handler's field_handler_packet_confirms; with one, PATCH it to confirmed.
 */
export async function confirmPacket(input: ConfirmInput): Promise<void> {
  if (!input.handler) throw new ConfirmationError('Handler profile is not loaded.');
  if (!input.season) throw new ConfirmationError('Current season is not available.');
  if (!input.season.id) throw new ConfirmationError('Missing current season ID.');
  if (!input.handlerId) throw new ConfirmationError('Missing handler ID.');
  try {
    const seasonId = input.season.id;
    const handlerId = input.handlerId;
    const title = `Handler Packet Confirmation-${input.handlerNumber ?? ''}-${attr(input.season, 'title') ?? ''}`;
    const attributes = {
      title,
      field_handler_packet_confirm: true,
      field_certification_datetime: isoTimestamp(),
      field_certification_name: input.username,
    };
    const existing = await findConfirmation(handlerId, seasonId);
    if (existing) {
      try {
        await jsonApi.update<PacketConfirmation>('node--handler_packet_confirmation', existing.id, attributes);
      } catch (error) {
        throw new ConfirmationError(`Failed to update existing confirmation: ${statusOf(error)}`);
      }
      return;
    }
    let createdId: string;
    try {
      const created = await jsonApi.create<PacketConfirmation>('node--handler_packet_confirmation', attributes, {
        field_season: ref('node--season', seasonId),
        field_handler: ref('node--handler', handlerId),
      });
      createdId = created.id;
    } catch (error) {
      throw new ConfirmationError(`Failed to create new confirmation: ${statusOf(error)}`);
    }
    try {
      await jsonApi.relate('node--handler', handlerId, 'field_handler_packet_confirms', [
        ref('node--handler_packet_confirmation', createdId),
      ]);
    } catch (error) {
      throw new ConfirmationError(`Failed to append confirmation to handler: ${statusOf(error)}`);
    }
  } catch (error) {
    if (error instanceof ConfirmationError) throw error;
    throw new ConfirmationError('Unknown error');
  }
}
