import {
  FORM_FIELDS,
  columnOf,
  validateFormAttributes,
  type FieldDef,
  type FieldKind,
  type FormBundle,
} from '@pecan/contract';
import type { Codec } from '../jsonapi/codecs.js';
import { attr, nodeAttributes, toMany, toOne, type AttributeDef, type ResourceDef } from '../jsonapi/resource.js';
import { eitherParty, ownHandler } from './access.js';

// A price per pound is, like a ratio, integer ten-thousandths <-> a decimal string with four places.
const CODEC: Record<FieldKind, Codec> = {
  pounds: 'int',
  money: 'money',
  ratio: 'ratio',
  price: 'ratio',
  date: 'date',
  month: 'month',
  bool: 'bool',
  text: 'string',
  varietyList: 'json',
  transferList: 'json',
};

/** The attributes of a form's own fields, from the contract's field list: entered ones writable, computed not. */
export function formFieldAttributes(fields: FieldDef[]): Record<string, AttributeDef> {
  return Object.fromEntries(
    fields.map((f) => [
      `field_${f.name}`,
      attr(columnOf(f), CODEC[f.kind], {
        writable: f.entry === 'entered',
        nullable: f.kind === 'date' || f.kind === 'month' || f.kind === 'text' || f.question === true,
        description: unitOf(f),
      }),
    ]),
  );
}

/** What the machine-readable description says of a form field: its unit, and whether the server computes it. */
function unitOf(f: FieldDef): string | undefined {
  const unit =
    f.unit ??
    (f.kind === 'money'
      ? 'US dollars'
      : f.kind === 'price'
        ? 'US dollars per pound'
        : f.kind === 'ratio'
          ? 'a ratio'
          : undefined);
  const parts = [unit ? `Unit: ${unit}.` : '', f.entry === 'computed' ? 'Computed by the server.' : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The shared form schema's checks of a write (ranges, lists), for one 422 that names every invalid field. */
const validated = (bundle: FormBundle) => (attributes: Record<string, unknown>) => {
  const { field_position: _position, ...fields } = attributes;
  return validateFormAttributes(bundle, fields);
};

/** Status, certification stamp and amendment chain, on every APC form. */
function versionAttributes(): Record<string, AttributeDef> {
  return {
    field_form_status: attr('form_status', 'string', {
      nullable: false,
      allowed: ['draft', 'certified', 'superseded'],
    }),
    field_certified: attr('certified', 'bool', { writable: true, nullable: false }),
    field_certification_name: attr('certification_name', 'string', { writable: true }),
    field_certification_title: attr('certification_title', 'string', { writable: true }),
    field_certification_datetime: attr('certification_datetime', 'datetime'),
    field_amendment_number: attr('amendment_number', 'int', { nullable: false }),
    field_amendment_reason: attr('amendment_reason', 'string', { writable: true }),
  };
}

function monthlyForm(n: 1 | 2 | 3, extra: ResourceDef['relationships'] = {}): ResourceDef {
  const bundle = `apc_form_${n}` as FormBundle;
  return {
    type: `node--${bundle}`,
    entity: 'node',
    bundle,
    table: bundle,
    attributes: { ...nodeAttributes(), ...versionAttributes(), ...formFieldAttributes(FORM_FIELDS[bundle]) },
    relationships: {
      field_handler: toOne('node--handler', 'handler_id'),
      field_reporting_period: toOne('node--reporting_period', 'period_id'),
      field_reporting_forms_package: toOne('node--reporting_forms_package', 'package_id'),
      field_amendment_of: toOne(`node--${bundle}`, 'amendment_of_id', { writable: true }),
      [`field_form_${n}_pdf`]: toOne('file--file', `form_${n}_pdf_id`),
      ...extra,
    },
    access: ownHandler(),
    defaultSort: 'created',
    validateAttributes: validated(bundle),
  };
}

export const form1 = monthlyForm(1);
export const form2 = monthlyForm(2, {
  field_purchased_outside_us: toMany('node--pecans_purchased_non_us', 'form_id', ['position', 'created']),
});
export const form3 = monthlyForm(3, {
  field_exports_by_country: toMany('node--export_by_country', 'form_id', ['position', 'created']),
});

function subRecord(
  bundle: 'pecans_purchased_non_us' | 'export_by_country',
  form: 'node--apc_form_2' | 'node--apc_form_3',
): ResourceDef {
  return {
    type: `node--${bundle}`,
    entity: 'node',
    bundle,
    table: bundle,
    attributes: {
      ...nodeAttributes(),
      ...formFieldAttributes(FORM_FIELDS[bundle]),
      field_position: attr('position', 'int', { writable: true, nullable: false }),
    },
    relationships: {
      field_form: toOne(form, 'form_id', { writable: true }),
      field_handler: toOne('node--handler', 'handler_id'),
    },
    access: ownHandler(),
    defaultSort: 'field_position',
    validateAttributes: validated(bundle),
  };
}
export const pecansPurchasedNonUs = subRecord('pecans_purchased_non_us', 'node--apc_form_2');
export const exportByCountry = subRecord('export_by_country', 'node--apc_form_3');

export const reportingFormsPackage: ResourceDef = {
  type: 'node--reporting_forms_package',
  entity: 'node',
  bundle: 'reporting_forms_package',
  table: 'reporting_forms_packages',
  attributes: nodeAttributes(),
  relationships: {
    field_reporting_period: toOne('node--reporting_period', 'period_id'),
    field_handler: toOne('node--handler', 'handler_id'),
    // Every version of each form, oldest first: the last is the current one.
    field_form_1: toMany('node--apc_form_1', 'package_id', ['amendment_number', 'created']),
    field_form_2: toMany('node--apc_form_2', 'package_id', ['amendment_number', 'created']),
    field_form_3: toMany('node--apc_form_3', 'package_id', ['amendment_number', 'created']),
  },
  access: ownHandler(),
  defaultSort: 'created',
};

export const form4: ResourceDef = {
  type: 'node--apc_form_4',
  entity: 'node',
  bundle: 'apc_form_4',
  table: 'apc_form_4',
  attributes: {
    ...nodeAttributes(),
    ...versionAttributes(),
    ...formFieldAttributes(FORM_FIELDS.apc_form_4),
    field_form_activity: attr('form_activity', 'string', {
      writable: true,
      nullable: false,
      allowed: ['active', 'cancelled'],
    }),
    field_receiving_certification_name: attr('receiving_certification_name', 'string', { writable: true }),
    field_receiving_certification_title: attr('receiving_certification_title', 'string', { writable: true }),
    field_receiving_certified: attr('receiving_certified', 'bool', {
      writable: true,
      nullable: false,
      description: 'The receiving handler confirmed the certification statement when countersigning.',
    }),
    field_receiving_certification_datetime: attr('receiving_certification_datetime', 'datetime'),
    field_cancelled_datetime: attr('cancelled_datetime', 'datetime'),
  },
  relationships: {
    field_transferring_handler: toOne('node--handler', 'transferring_handler_id', { writable: true }),
    field_receiving_handler: toOne('node--handler', 'receiving_handler_id', { writable: true }),
    field_season: toOne('node--season', 'season_id', { writable: true }),
    field_form_4_pdf: toOne('file--file', 'form_4_pdf_id'),
  },
  access: eitherParty,
  defaultSort: 'created',
  validateAttributes: validated('apc_form_4'),
};

export const form5: ResourceDef = {
  type: 'node--apc_form_5',
  entity: 'node',
  bundle: 'apc_form_5',
  table: 'apc_form_5',
  attributes: { ...nodeAttributes(), ...versionAttributes(), ...formFieldAttributes(FORM_FIELDS.apc_form_5) },
  relationships: {
    field_handler: toOne('node--handler', 'handler_id', { writable: true }),
    field_season: toOne('node--season', 'season_id', { writable: true }),
    field_amendment_of: toOne('node--apc_form_5', 'amendment_of_id', { writable: true }),
    field_form_5_pdf: toOne('file--file', 'form_5_pdf_id'),
  },
  access: ownHandler(),
  defaultSort: 'created',
  validateAttributes: validated('apc_form_5'),
};
