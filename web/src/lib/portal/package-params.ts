/**
 * The queries the web app reads forms packages with. Apart from packages.ts (which holds hooks and the fetch client)
 * so that the benchmark (bench/run.ts) sends the very same requests.
 */
import { DrupalJsonApiParams } from '../jsonapi/params';

/** What a package is read with: its period, its forms' versions and their PDFs. */
const PACKAGE_INCLUDES = [
  'field_reporting_period',
  'field_form_1',
  'field_form_2',
  'field_form_3',
  'field_form_1.field_form_1_pdf',
  'field_form_2.field_form_2_pdf',
  'field_form_3.field_form_3_pdf',
];

/** One season's packages of a handler, newest reporting period first, with periods, forms and their PDFs. */
export function seasonPackagesParams(handlerId: string, seasonId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.id', seasonId)
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(PACKAGE_INCLUDES)
    .addPageLimit(50);
}

/**
 * The current season's packages of a handler, as one season's (same includes and order), found by the season's flag:
 * the sign-in's batch reads it before it knows the current season's id (the seasons come in the same batch).
 */
export function currentSeasonPackagesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.field_current_season', '1')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(PACKAGE_INCLUDES)
    .addPageLimit(50);
}

/**
 * The package after a form's package, as the form page's 'Next package' button goes (spec: "the following one in the
 * season, or the first of the next season"): packages are listed newest period first and seasons do not overlap, so
 * it is the handler's package of the latest period due before this one. Only its forms' ids (the relationships'
 * linkage, oldest version first) are asked for: the button opens the current version. The form page read every
 * package of every season for this (265 KB for a handler at 10 seasons, 4 ms of the server's CPU); this is one.
 */
export function nextPackageParams(handlerId: string, dueBefore: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_due_date', dueBefore, '<')
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addFields('node--reporting_forms_package', ['field_form_1', 'field_form_2', 'field_form_3'])
    .addPageLimit(1);
}
