import { z } from 'zod';
import { attributeName } from './attribute-names.js';
import { FORM_FIELDS, type FieldDef, type FormBundle } from './fields.js';
import { MAX_VARIETY_NAME_LENGTH } from './limits.js';
import {
  boolSchema,
  dateSchema,
  foreignCountrySchema,
  moneySchema,
  monthSchema,
  poundsSchema,
  priceSchema,
  ratioSchema,
  responsibleHandlerSchema,
  textSchema,
  transferListSchema,
  varietyListSchema,
} from './value-schemas.js';

/**
 * zod schemas of form attributes, built from FORM_FIELDS so a new field is validated the moment it is listed.
 *
 * Two modes:
 * - 'patch': a draft update. Every entered field may be left out; date and month fields (and optional ones and
 *   questions) may be set to null to clear them. This is what PATCH on a draft form accepts.
 * - 'complete': every entered field that is not optional must be there and not null. Used to create a sub-record
 *   and, with the cross-field rules, to certify a form.
 * In both, a computed field is refused with a message that says so, and an unknown attribute is refused.
 */
export type AttributesMode = 'patch' | 'complete';
export type AttributesSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** Text fields with rules of their own; every other text field is trimmed text of at most 255 characters. */
const SPECIAL_TEXT_FIELDS: Record<string, (attribute: string) => z.ZodType<unknown, unknown>> = {
  'apc_form_4.responsible_handler': responsibleHandlerSchema,
  'pecans_purchased_non_us.country_of_origin': foreignCountrySchema,
  'pecans_purchased_non_us.variety': (attribute) => textSchema(attribute, MAX_VARIETY_NAME_LENGTH),
  'export_by_country.country': foreignCountrySchema,
};

/** The schema of a field's value, not null. */
export function fieldValueSchema(bundle: FormBundle, field: FieldDef): z.ZodType<unknown, unknown> {
  const attribute = attributeName(field);
  switch (field.kind) {
    case 'pounds':
      return poundsSchema(attribute);
    case 'money':
      return moneySchema(attribute);
    case 'ratio':
      return ratioSchema(attribute);
    case 'price':
      return priceSchema(attribute);
    case 'date':
      return dateSchema(attribute);
    case 'month':
      return monthSchema(attribute);
    case 'bool':
      return boolSchema(attribute);
    case 'varietyList':
      return varietyListSchema(attribute);
    case 'transferList':
      return transferListSchema(attribute);
    case 'text':
      return (SPECIAL_TEXT_FIELDS[`${bundle}.${field.name}`] ?? textSchema)(attribute);
  }
}

/**
 * The database keeps dates and months as nullable text, and a question unanswered as null; other kinds have a
 * value (0, false, []) from the start.
 */
const clearableOnDraft = (field: FieldDef): boolean =>
  field.optional === true || field.question === true || field.kind === 'date' || field.kind === 'month';

function requiredValue(attribute: string, schema: z.ZodType<unknown, unknown>): z.ZodType<unknown, unknown> {
  // z.any, not z.unknown: pipe() needs the left side's output to fit the right side's input.
  return z
    .any()
    .refine((value) => value !== undefined && value !== null, { error: `${attribute} is required`, abort: true })
    .pipe(schema);
}

function enteredFieldSchema(bundle: FormBundle, field: FieldDef, mode: AttributesMode): z.ZodType<unknown, unknown> {
  const value = fieldValueSchema(bundle, field);
  if (mode === 'complete' && !field.optional) return requiredValue(attributeName(field), value);
  const nullable = mode === 'patch' ? clearableOnDraft(field) : true;
  return (nullable ? value.nullable() : value).optional();
}

const computedFieldSchema = (field: FieldDef): z.ZodType<unknown, unknown> =>
  z.never({ error: `${attributeName(field)} is computed by the server and cannot be set` }).optional();

function buildAttributesSchema(bundle: FormBundle, mode: AttributesMode): AttributesSchema {
  const shape = Object.fromEntries(
    FORM_FIELDS[bundle].map((field) => [
      attributeName(field),
      field.entry === 'computed' ? computedFieldSchema(field) : enteredFieldSchema(bundle, field, mode),
    ]),
  );
  return z.strictObject(shape) as unknown as AttributesSchema;
}

/** Built once per bundle and mode: the server validates every PATCH with it. */
const schemaCache = new Map<string, AttributesSchema>();

/** The attributes of one bundle (form or sub-record), keyed by API name (`field_` + name). */
export function formAttributesSchema(bundle: FormBundle, mode: AttributesMode = 'patch'): AttributesSchema {
  const key = `${bundle}:${mode}`;
  let schema = schemaCache.get(key);
  if (!schema) {
    schema = buildAttributesSchema(bundle, mode);
    schemaCache.set(key, schema);
  }
  return schema;
}

/** PATCH attributes of a draft form (or a sub-record): only entered fields, each optional. */
export const draftUpdateSchema = (bundle: FormBundle): AttributesSchema => formAttributesSchema(bundle, 'patch');

/** A new row of form 2: a purchase of pecans grown outside the US. */
export const pecansPurchasedNonUsSchema: AttributesSchema = formAttributesSchema('pecans_purchased_non_us', 'complete');

/** A new row of form 3: exports to one country this month. */
export const exportByCountrySchema: AttributesSchema = formAttributesSchema('export_by_country', 'complete');
