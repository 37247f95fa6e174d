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
 * season, or the first of the next season"): next in time, the newer month, as a reader of a calendar expects; the
 * dashboard lists packages newest first, which made an earlier version step to the older month. Seasons do not
 * overlap, so it is the handler's package of the earliest period due after this one. Only its forms' ids (the
 * relationships' linkage, oldest version first) are asked for: the button opens the current version.
 */
export function nextPackageParams(handlerId: string, dueAfter: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_due_date', dueAfter, '>')
    .addSort('field_reporting_period.field_due_date', 'ASC')
    .addFields('node--reporting_forms_package', ['field_form_1', 'field_form_2', 'field_form_3'])
    .addPageLimit(1);
}
