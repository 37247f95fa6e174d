import { describe, expect, it } from 'vitest';
import { menuStateFromPath } from './menu-items';

describe('menu state from the path', () => {
  it('selects the entry of the last segment', () => {
    expect(menuStateFromPath('/dashboard')).toEqual({ selectedKey: 'dashboard', openKeys: [] });
    expect(menuStateFromPath('/dashboard/invoices')).toEqual({ selectedKey: 'invoices', openKeys: [] });
    expect(menuStateFromPath('/dashboard/help/')).toEqual({ selectedKey: 'help', openKeys: [] });
  });
  it('selects nothing on a page without an entry, not the dashboard (My Profile, an unknown path)', () => {
    expect(menuStateFromPath('/dashboard/my-profile')).toEqual({ selectedKey: null, openKeys: [] });
    expect(menuStateFromPath('/dashboard/no-such-page')).toEqual({ selectedKey: null, openKeys: [] });
  });
  it('opens the Council group for its entries', () => {
    expect(menuStateFromPath('/dashboard/council/account-requests')).toEqual({
      selectedKey: 'account-requests',
      openKeys: ['council'],
    });
    expect(menuStateFromPath('/dashboard/council/board/filing/apc_form_1/9b1c')).toEqual({
      selectedKey: 'board',
      openKeys: ['council'],
    });
    expect(menuStateFromPath('/dashboard/council/users')).toEqual({ selectedKey: 'users', openKeys: ['council'] });
  });
  it('maps certification pages to their area', () => {
    expect(menuStateFromPath('/dashboard/formCertification/3f2a')).toEqual({
      selectedKey: 'forms-packages',
      openKeys: [],
    });
    expect(menuStateFromPath('/dashboard/form5AmendCertification/x')).toEqual({
      selectedKey: 'year-end-forms',
      openKeys: [],
    });
  });
});
