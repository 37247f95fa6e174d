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
 * All packages of the handler (every season), newest reporting period first, as the form page's 'Next package'
 * button needs them and no more: each package's period with its season, and the ids of its forms' versions (the
 * relationships' linkage, oldest first). Neither the forms' fields nor their PDFs: a form's own read carries those.
 * With every field of every version this was 196 KB for two seasons of one handler; it is 36 KB now (mostly links).
 */
export function allPackagesParams(handlerId: string) {
  return new DrupalJsonApiParams()
    .addFilter('field_handler.id', handlerId)
    .addSort('field_reporting_period.field_due_date', 'DESC')
    .addInclude(['field_reporting_period'])
    .addFields('node--reporting_forms_package', ['field_reporting_period', 'field_form_1', 'field_form_2', 'field_form_3'])
    .addFields('node--reporting_period', ['field_season'])
    .addPageLimit(500);
}
