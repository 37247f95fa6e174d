import type { FieldDef, FieldError } from '@pecan/contract';
import type { TFunction } from 'i18next';

/** A field's label in the current language. */
export const fieldLabel = (t: TFunction, name: string): string => t(`fields.${name}`, { defaultValue: name });

/** The unit shown beside an input ('lb inshell', 'USD', ...), translated. */
export function unitLabel(t: TFunction, unit: string | undefined): string | undefined {
  if (!unit) return undefined;
  const key = { 'lb inshell': 'lbInshell', 'lb shelled': 'lbShelled', lb: 'lb', USD: 'usd', 'USD/lb': 'usdPerLb' }[
    unit
  ];
  return key ? t(`units.${key}`) : unit;
}

/**
 * The contract's validation messages are English and name the attribute; the page shows one sentence per kind of
 * value in the user's language instead.
 */
export function fieldErrorText(t: TFunction, def: FieldDef | undefined, error: Pick<FieldError, 'message'>): string {
  const m = error.message;
  if (/is computed by the server/.test(m)) return t('validation.computed');
  if (/is required/.test(m)) return t('validation.required');
  if (/twice/.test(m)) return t('validation.varietyTwice');
  if (/each variety/.test(m)) return t('validation.varietyName');
  if (/each row's pounds/.test(m)) return t('validation.pounds');
  if (/other than the United States/.test(m)) return t('validation.notUs');
  if (/country code/.test(m)) return t('validation.country');
  switch (def?.kind) {
    case 'pounds':
      return t('validation.pounds');
    case 'date':
      return t('validation.date');
    case 'bool':
      return t('validation.bool');
    case 'varietyList':
      return t('validation.varietyList');
    case 'transferList':
      return /active handler|itself/.test(m) ? t('validation.transferHandler') : t('validation.transferList');
    case 'text':
      return t('validation.text');
    default:
      return m;
  }
}

/** `field_x` in a message of the contract: the names it words its rules between fields with. */
const ATTRIBUTE = /\bfield_([a-z0-9_]+)/g;

/**
 * A message about a field as a person reads it: the rules between fields in the user's language with both fields'
 * labels ("Date shipped to Mexico is required when Inshell sent to Mexico is more than 0."), any other message
 * after the field's label. Never a `field_` name, whatever the server or the contract wrote.
 */
export function fieldMessage(
  t: TFunction,
  defs: readonly FieldDef[],
  error: Pick<FieldError, 'field' | 'message'>,
): string {
  const name = error.field.replace(/^field_/, '');
  const label = fieldLabel(t, name);
  const named = [...error.message.matchAll(ATTRIBUTE)].map((m) => m[1]);
  if (/is required when/.test(error.message) && named.length >= 2)
    return t('validation.requiredWhen', { field: fieldLabel(t, named[0]), other: fieldLabel(t, named[1]) });
  if (/must not be before/.test(error.message) && named.length >= 2)
    return t('validation.notBefore', { field: fieldLabel(t, named[0]), other: fieldLabel(t, named[1]) });
  const def = defs.find((f) => f.name === name);
  const text = fieldErrorText(t, def, {
    message: error.message.replace(ATTRIBUTE, (_, n: string) => fieldLabel(t, n)),
  });
  return name ? t('validation.ofField', { field: label, message: text }) : text;
}
