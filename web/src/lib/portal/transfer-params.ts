/**
 * The query the dashboard counts the agreements awaiting the handler's countersignature with. Apart from
 * transfers-awaiting.ts (hooks and the fetch client) so that the benchmark (bench/run.ts) sends the very same batch.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/**
 * Forms 4 naming the handler as the receiving one, certified by the sender, active, and not yet countersigned: only
 * their titles (the dashboard shows how many and links to the transfers page, which reads them in full).
 */
export function awaitingCountersignatureParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_receiving_handler.id', handlerId)
    .addFilter('field_form_activity', 'active')
    .addFilter('field_form_status', 'certified')
    .addFilter('field_receiving_certification_datetime', null, 'IS NULL')
    .addFields('node--apc_form_4', ['title'])
    .addPageLimit(200);
}
