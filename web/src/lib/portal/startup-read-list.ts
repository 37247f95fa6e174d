/**
 * What the sign-in's one batch reads. startup-reads.ts sends it and seeds the pages' queries with the answers; this
 * list is apart from it (no hooks, no caches) so that the benchmark (bench/run.ts) sends the very same batch.
 */
import type { BatchRead } from '../jsonapi/subrequests';
import { userWithHandlerParams } from './handler-params';
import { openInvoicesParams } from './invoice-params';
import { currentSeasonPackagesParams } from './package-params';
import { seasonsParams } from './season-params';
import { newestReportParams } from './position-report-params';
import { awaitingCountersignatureParams } from './transfer-params';

/** Where the user's answer gives its handler's id: the replacement token the dependent reads carry in their uri. */
export const HANDLER_ID_OF_USER = '{{user.body@$.data[0].relationships.field_user_handler_company.data.id}}';

/** The reads of the batch; those of the handler's own data wait for the user's answer and take its handler id. */
export function startupReads(username: string): BatchRead[] {
  const afterUser = ['user'];
  return [
    { requestId: 'user', path: '/jsonapi/user/user', params: userWithHandlerParams(username) },
    { requestId: 'seasons', path: '/jsonapi/node/season', params: seasonsParams() },
    { requestId: 'report', path: '/jsonapi/node/monthly_position_report', params: newestReportParams() },
    {
      requestId: 'packages',
      path: '/jsonapi/node/reporting_forms_package',
      params: currentSeasonPackagesParams(HANDLER_ID_OF_USER),
      waitFor: afterUser,
    },
    {
      requestId: 'invoices',
      path: '/jsonapi/node/invoice',
      params: openInvoicesParams(HANDLER_ID_OF_USER),
      waitFor: afterUser,
    },
    {
      requestId: 'awaiting',
      path: '/jsonapi/node/apc_form_4',
      params: awaitingCountersignatureParams(HANDLER_ID_OF_USER),
      waitFor: afterUser,
    },
  ];
}
