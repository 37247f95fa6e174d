import type { NotNull } from 'kysely';
import type { AppContext } from '../context.js';
import { portalDb } from '../db/portal-tables.js';

export interface Recipient {
  id: string;
  mail: string;
  first_name: string;
}

/** Who hears a handler's reminders, by handler id: its active handler users with a mail address, by user name. */
export type Recipients = ReadonlyMap<string, readonly Recipient[]>;

/**
 * Every handler's recipients in one statement, read once a pass and shared by the monthly and yearly reminders: no
 * handler ids are bound (1,000 of them would make a statement text of its own for each count) and no user list is
 * scanned per handler.
 */
export async function readRecipients(ctx: AppContext): Promise<Recipients> {
  const users = await portalDb(ctx.db)
    .selectFrom('users')
    .select(['id', 'mail', 'first_name', 'handler_id'])
    .where('handler_id', 'is not', null)
    .where('status', '=', 'active')
    .where('role', '=', 'handler')
    .where('mail', 'is not', null)
    .$narrowType<{ mail: NotNull; handler_id: NotNull }>()
    .orderBy('name')
    .execute();
  const byHandler = new Map<string, Recipient[]>();
  for (const u of users) {
    if (u.mail.trim() === '') continue;
    const list = byHandler.get(u.handler_id) ?? [];
    list.push({ id: u.id, mail: u.mail, first_name: u.first_name });
    byHandler.set(u.handler_id, list);
  }
  return byHandler;
}
