/**
 * The queries the web app reads the signed-in user and its handler with. Apart from handler.ts and the start-up
 * reads (which hold hooks and the fetch client) so that the benchmark (bench/run.ts) sends the very same requests.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** The user by name: the spec's call of the login sequence; the certification page reads the certifier with it. */
export function userByNameParams(username: string) {
  return new DrupalJsonApiParams().addFilter('name', username);
}

/** The user by name with the handler company and what the dashboard needs of it (the sign-in's batch). */
export function userWithHandlerParams(username: string) {
  return userByNameParams(username).addInclude([
    'field_user_handler_company',
    'field_user_handler_company.field_handler_analytics',
    'field_user_handler_company.field_handler_packet_confirms',
  ]);
}

/** GET /jsonapi/node/handler/{id}: the signed-in user's handler with its analytics and packet confirmations. */
export function handlerWithIncludesParams() {
  return new DrupalJsonApiParams().addInclude(['field_handler_analytics', 'field_handler_packet_confirms']);
}
