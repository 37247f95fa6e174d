import type { FieldDef } from './fields.js';

/** On the API every form field is `field_` + its name (shared/contract/api.md). */
export const ATTRIBUTE_PREFIX = 'field_';

export const attributeName = (field: FieldDef | string): string =>
  ATTRIBUTE_PREFIX + (typeof field === 'string' ? field : field.name);

/** 'field_receipts_native' -> 'receipts_native'; undefined for an attribute without the prefix. */
export const fieldNameOf = (attribute: string): string | undefined =>
  attribute.startsWith(ATTRIBUTE_PREFIX) ? attribute.slice(ATTRIBUTE_PREFIX.length) : undefined;

/** JSON:API pointer of an attribute, for the `source.pointer` of a 422 error. */
export const attributePointer = (attribute: string): string => `/data/attributes/${attribute}`;

/**
 * Attributes of form nodes that are not form fields: the node's own, and the lifecycle ones (status,
 * certification, amendment, form 4's activity). The server checks these itself; form validation passes over them.
 */
export const FORM_LIFECYCLE_ATTRIBUTES: ReadonlySet<string> = new Set([
  'title',
  'created',
  'changed',
  'field_form_status',
  'field_certified',
  'field_certification_name',
  'field_certification_title',
  'field_certification_datetime',
  'field_amendment_number',
  'field_amendment_reason',
  'field_form_activity',
  'field_receiving_certification_name',
  'field_receiving_certification_datetime',
  'field_cancelled_datetime',
]);
