import type { z } from 'zod';
import { attributePointer, fieldNameOf, FORM_LIFECYCLE_ATTRIBUTES } from './attribute-names.js';
import type { FormBundle } from './fields.js';
import { formAttributesSchema, type AttributesMode } from './form-schemas.js';

/**
 * Validation that reports instead of throwing: one error per attribute, so the server can answer a 422 with one
 * error object per field (source.pointer /data/attributes/field_x) and the web app can mark each input.
 */
export interface FieldError {
  /** The API attribute, 'field_x'. */
  field: string;
  message: string;
}

export type ParsedAttributes =
  | {
      ok: true;
      /** Keyed by field name (no `field_`), in stored units (cents, ten-thousandths). */ values: Record<
        string,
        unknown
      >;
    }
  | { ok: false; errors: FieldError[] };

export interface ValidateOptions {
  mode?: AttributesMode;
}

/** Lifecycle attributes (status, certification, ...) are the server's business, not the form's. */
function formAttributesOnly(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => !FORM_LIFECYCLE_ATTRIBUTES.has(name)));
}

/** The first issue of each attribute; an unknown attribute gets its own error. */
function fieldErrorsOf(bundle: FormBundle, issues: readonly z.core.$ZodIssue[]): FieldError[] {
  const errors = new Map<string, string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.path.length === 0) {
      for (const key of issue.keys) errors.set(key, `${key} is not an attribute of ${bundle}`);
      continue;
    }
    const field = String(issue.path[0] ?? '');
    if (!errors.has(field)) errors.set(field, messageOf(field, issue) + rowSuffix(issue.path));
  }
  return [...errors].map(([field, message]) => ({ field, message }));
}

/** Our schemas word their own messages; only an unknown key inside a list row gets zod's, so word that one. */
function messageOf(field: string, issue: z.core.$ZodIssue): string {
  return issue.code === 'unrecognized_keys'
    ? `${field} rows must not have ${issue.keys.map((key) => `"${key}"`).join(', ')}`
    : issue.message;
}

/** A problem inside a list names the row, counting from 1: "... (row 3)". */
function rowSuffix(path: readonly PropertyKey[]): string {
  return typeof path[1] === 'number' ? ` (row ${path[1] + 1})` : '';
}

export function parseFormAttributes(
  bundle: FormBundle,
  attributes: Record<string, unknown>,
  options: ValidateOptions = {},
): ParsedAttributes {
  const result = formAttributesSchema(bundle, options.mode ?? 'patch').safeParse(formAttributesOnly(attributes));
  if (!result.success) return { ok: false, errors: fieldErrorsOf(bundle, result.error.issues) };
  const values = Object.entries(result.data)
    .filter(([, value]) => value !== undefined)
    .map(([attribute, value]) => [fieldNameOf(attribute) ?? attribute, value]);
  return { ok: true, values: Object.fromEntries(values) };
}

/** The errors of a PATCH (default) or a complete record; empty when valid. */
export function validateFormAttributes(
  bundle: FormBundle,
  attributes: Record<string, unknown>,
  options: ValidateOptions = {},
): FieldError[] {
  const result = parseFormAttributes(bundle, attributes, options);
  return result.ok ? [] : result.errors;
}

export interface JsonApiFieldError {
  status: '422';
  title: string;
  detail: string;
  source: { pointer: string };
}

/** Field errors as JSON:API error objects, one per field. */
export function toJsonApiErrors(errors: readonly FieldError[]): JsonApiFieldError[] {
  return errors.map(({ field, message }) => ({
    status: '422',
    title: 'Unprocessable Entity',
    detail: message,
    source: { pointer: attributePointer(field) },
  }));
}
