import { augustForm1Differences } from '../compute/form-5.js';
import { attributeName } from './attribute-names.js';
import { FORM_FIELDS, type FormBundle } from './fields.js';
import { parseFormAttributes, type FieldError } from './validate.js';

/**
 * What must hold before a form may be certified, checked on the form's full current attributes (as the API shows
 * them; computed fields in there are passed over). First every entered field that is not optional must be filled
 * and valid, then the rules between fields. A Form 1 or 2 or 3 flagged "no change since last month" needs nothing
 * else filled (domain brief, Form 1).
 *
 * The certification attributes themselves (field_certified, field_certification_name) are checked by the server.
 */
export type CertifiableForm = 'apc_form_1' | 'apc_form_2' | 'apc_form_3' | 'apc_form_4' | 'apc_form_5';
type Values = Record<string, unknown>;
type Rule = (values: Values) => FieldError | undefined;

const pounds = (values: Values, name: string): number => (values[name] as number | undefined) ?? 0;
const sum = (values: Values, ...names: string[]): number =>
  names.reduce((total, name) => total + pounds(values, name), 0);
const error = (name: string, message: string): FieldError => ({ field: attributeName(name), message });

/** A quantity sent to or returned from Mexico needs its date. */
const needsDateWhenPounds =
  (poundsField: string, dateField: string): Rule =>
  (values) =>
    pounds(values, poundsField) > 0 && !values[dateField]
      ? error(dateField, `${attributeName(dateField)} is required when ${attributeName(poundsField)} is more than 0`)
      : undefined;

const returnNotBeforeShipment: Rule = (values) => {
  const shipped = values.mexico_ship_date as string | undefined;
  const returned = values.mexico_return_date as string | undefined;
  return shipped && returned && returned < shipped
    ? error('mexico_return_date', 'field_mexico_return_date must not be before field_mexico_ship_date')
    : undefined;
};

/** The split of the shelled inventory into halves, pieces and work in progress must add up to it. */
const shelledSplitAddsUp: Rule = (values) => {
  const split = sum(values, 'shelled_halves', 'shelled_pieces', 'shelled_wip');
  const inventory = pounds(values, 'shelled_inventory');
  return split === inventory
    ? undefined
    : error(
        'shelled_inventory',
        `field_shelled_halves + field_shelled_pieces + field_shelled_wip (${split} lb) must equal field_shelled_inventory (${inventory} lb)`,
      );
};

const committedWithinInventory =
  (committed: string[], inventory: string[]): Rule =>
  (values) => {
    const committedPounds = sum(values, ...committed);
    const inventoryPounds = sum(values, ...inventory);
    const names = (list: string[]) => list.map(attributeName).join(' + ');
    return committedPounds <= inventoryPounds
      ? undefined
      : error(
          committed[0],
          `${names(committed)} (${committedPounds} lb) must not be more than ${names(inventory)} (${inventoryPounds} lb)`,
        );
  };

const CROSS_FIELD_RULES: Record<CertifiableForm, Rule[]> = {
  apc_form_1: [],
  apc_form_2: [
    needsDateWhenPounds('mexico_inshell_lb', 'mexico_ship_date'),
    needsDateWhenPounds('mexico_shelled_lb', 'mexico_return_date'),
    returnNotBeforeShipment,
  ],
  apc_form_3: [],
  apc_form_4: [],
  apc_form_5: [
    shelledSplitAddsUp,
    committedWithinInventory(
      ['inshell_committed_domestic', 'inshell_committed_export'],
      ['inshell_inventory_improved', 'inshell_inventory_native', 'inshell_inventory_substandard'],
    ),
    committedWithinInventory(['shelled_committed_domestic', 'shelled_committed_export'], ['shelled_inventory']),
  ],
};

const computedAttributes = (bundle: FormBundle): Set<string> =>
  new Set(FORM_FIELDS[bundle].filter((field) => field.entry === 'computed').map(attributeName));

export function certificationErrors(bundle: CertifiableForm, attributes: Record<string, unknown>): FieldError[] {
  const computed = computedAttributes(bundle);
  const entered = Object.fromEntries(Object.entries(attributes).filter(([name]) => !computed.has(name)));
  const noChange = entered.field_no_change_flag === true;
  const result = parseFormAttributes(bundle, entered, { mode: noChange ? 'patch' : 'complete' });
  if (!result.ok) return result.errors;
  if (noChange) return [];
  const errors = CROSS_FIELD_RULES[bundle]
    .map((rule) => rule(result.values))
    .filter((found): found is FieldError => found !== undefined);
  const august = bundle === 'apc_form_5' ? augustAnswerError(attributes) : undefined;
  return august ? [...errors, august] : errors;
}

/**
 * Form 5's "the August Form 1 must be amended" follows the figures: when the form's inventory differs from the
 * August Form 1's (computed fields, so the full attributes are read), the answer must be yes. Also used by the
 * server on a draft PATCH that answers no, so the handler hears it at once.
 */
export function augustAnswerError(attributes: Record<string, unknown>): FieldError | undefined {
  if (attributes.field_aug_form_1_amend_reqd !== false) return undefined;
  const values = Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name.replace(/^field_/, ''), value]),
  );
  const differences = augustForm1Differences(values);
  if (differences.length === 0) return undefined;
  const detail = differences
    .map(
      (d) =>
        `${d.basis} inventory ${d.form5} lb here, ${d.augustForm1} lb on the August Form 1 (difference ${d.difference > 0 ? '+' : ''}${d.difference} lb)`,
    )
    .join('; ');
  return error(
    'aug_form_1_amend_reqd',
    `field_aug_form_1_amend_reqd cannot be false: ${detail}. The August Form 1 must be amended.`,
  );
}

/**
 * The rules between fields alone, on a draft's attributes as typed (a value the schemas refuse is the field's own
 * error, and its rules wait for it): the web app runs them while the handler edits, so that certification never
 * brings the first news of a problem. The same rules, the same code, as `certificationErrors`.
 */
export function crossFieldErrors(bundle: CertifiableForm, attributes: Record<string, unknown>): FieldError[] {
  if (attributes.field_no_change_flag === true) return [];
  const computed = computedAttributes(bundle);
  const entered = Object.fromEntries(
    Object.entries(attributes).filter(([name]) => !computed.has(name) && name.startsWith('field_')),
  );
  const result = parseFormAttributes(bundle, entered, { mode: 'patch' });
  if (!result.ok) return [];
  return CROSS_FIELD_RULES[bundle]
    .map((rule) => rule(result.values))
    .filter((found): found is FieldError => found !== undefined);
}

/** True when the form may be certified. */
export const isCertifiable = (bundle: CertifiableForm, attributes: Record<string, unknown>): boolean =>
  certificationErrors(bundle, attributes).length === 0;
