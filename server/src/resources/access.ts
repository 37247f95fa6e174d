import { sql } from 'kysely';
import { isStaff, type Viewer } from '../context.js';
import type { AccessRules, Predicate } from '../jsonapi/resource.js';

/**
 * The contract's access rules as SQL predicates over an aliased row. Staff read everything; a handler user reads
 * by its handler company. Every query the engine builds passes through one of these.
 */
export const TRUE: Predicate = sql`1 = 1`;
export const FALSE: Predicate = sql`1 = 0`;

const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

export function staffOr(viewer: Viewer, predicate: () => Predicate): Predicate {
  return isStaff(viewer) ? TRUE : predicate();
}

/** Rows whose `column` is the reader's own handler. */
export function ownHandler(column = 'handler_id'): AccessRules {
  return {
    read: (v, a) => staffOr(v, () => (v.handlerId ? sql`${col(a, column)} = ${v.handlerId}` : FALSE)),
  };
}

/** Rows every signed-in user may read (seasons, periods, annual reports, industry analytics). */
export const everyone: AccessRules = { read: () => TRUE };

/** Rows only staff read. */
export const staffOnly: AccessRules = { read: (v) => staffOr(v, () => FALSE) };

/** Rows readable when a boolean column is set (published monthly reports). */
export function flagged(column: string): AccessRules {
  return { read: (v, a) => staffOr(v, () => sql`${col(a, column)} = ${sql.lit(true)}`) };
}

/** Forms 4: the reader's handler transfers or receives. */
export const eitherParty: AccessRules = {
  read: (v, a) =>
    staffOr(v, () =>
      v.handlerId
        ? sql`(${col(a, 'transferring_handler_id')} = ${v.handlerId} or ${col(a, 'receiving_handler_id')} = ${v.handlerId})`
        : FALSE,
    ),
};

/**
 * Handlers: one's own in full; those flagged for the directory with their directory card (contacts); every other
 * active handler by name and number only, so that a transfer's receiving handler can be found and named (form 4,
 * form 1's transfer lines) whether or not it is in the directory. An inactive handler outside the directory is
 * not read at all.
 */
export const handlerAccess: AccessRules = {
  read: (v, a) =>
    staffOr(
      v,
      () =>
        sql`(${col(a, 'show_in_handler_directory')} = ${sql.lit(true)} or ${col(a, 'handler_status')} = 'active'${v.handlerId ? sql` or ${col(a, 'id')} = ${v.handlerId}` : sql``})`,
    ),
  card: (v, a) => staffOr(v, () => sql`${col(a, 'show_in_handler_directory')} = ${sql.lit(true)}`),
  full: (v, a) => staffOr(v, () => (v.handlerId ? sql`${col(a, 'id')} = ${v.handlerId}` : FALSE)),
};

/** Users: oneself in full; colleagues of the same company who chose the directory, with directory fields only. */
export const userAccess: AccessRules = {
  read: (v, a) =>
    staffOr(
      v,
      () =>
        sql`(${col(a, 'id')} = ${v.userId}${
          v.handlerId
            ? sql` or (${col(a, 'handler_id')} = ${v.handlerId} and ${col(a, 'show_in_directory')} = ${sql.lit(true)} and ${col(a, 'status')} = 'active')`
            : sql``
        })`,
    ),
  full: (v, a) => staffOr(v, () => sql`${col(a, 'id')} = ${v.userId}`),
};
