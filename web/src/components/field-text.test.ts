import { FORM_FIELDS } from '@pecan/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../locales/en/filing.json';
import sa from '../locales/sa/filing.json';
import { fieldMessage } from './field-text';

async function translator(lang: 'en' | 'sa') {
  const instance = i18next.createInstance();
  await instance.init({
    lng: lang,
    ns: ['filing'],
    defaultNS: 'filing',
    resources: { en: { filing: en }, sa: { filing: sa } },
  });
  return instance.t;
}

describe('messages about fields, as a person reads them', () => {
  const rule = {
    field: 'field_mexico_ship_date',
    message: 'field_mexico_ship_date is required when field_mexico_inshell_lb is more than 0',
  };
  it('word the rules between fields with both labels, in the language of the page', async () => {
    expect(fieldMessage(await translator('en'), FORM_FIELDS.apc_form_2, rule)).toBe(
      'Date shipped to Mexico is required when Inshell sent to Mexico is more than 0.',
    );
    const arabic = fieldMessage(await translator('sa'), FORM_FIELDS.apc_form_2, rule);
    expect(arabic).toContain('تاريخ الشحن إلى المكسيك');
    expect(arabic).not.toContain('field_');
  });
  it('put any other message after the label, never a field_ name', async () => {
    const t = await translator('en');
    expect(
      fieldMessage(t, FORM_FIELDS.apc_form_2, {
        field: 'field_mexico_inshell_lb',
        message: 'field_mexico_inshell_lb must be a whole number',
      }),
    ).toBe('Inshell sent to Mexico: Enter a whole number of pounds from 0 to 10,000,000,000.');
    expect(
      fieldMessage(t, FORM_FIELDS.apc_form_2, {
        field: 'field_mexico_return_date',
        message: 'field_mexico_return_date must not be before field_mexico_ship_date',
      }),
    ).toBe('Date returned from Mexico must not be before Date shipped to Mexico.');
  });
});
