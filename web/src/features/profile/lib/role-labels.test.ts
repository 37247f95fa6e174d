import { describe, expect, it } from 'vitest';
import { roleLabelKeys } from './role-labels';
import en from '../../../locales/en/common.json';
import sa from '../../../locales/sa/common.json';

describe('role labels on My Profile', () => {
  it('leaves out "authenticated" and any role without a translated name', () => {
    expect(roleLabelKeys(['authenticated', 'handler'])).toEqual(['profile.role_handler']);
    expect(roleLabelKeys(['authenticated', 'some_new_role'])).toEqual([]);
  });
  it('every role shown has a name in English and Arabic', () => {
    for (const key of roleLabelKeys(['staff', 'handler', 'handler_admin', 'api_client'])) {
      const name = key.split('.')[1] as keyof typeof en.profile;
      expect(en.profile[name], key).toBeTruthy();
      expect((sa.profile as Record<string, string>)[name], key).toBeTruthy();
    }
  });
});
