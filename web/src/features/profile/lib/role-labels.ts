/**
 * The roles a person reads on My Profile. 'authenticated' is every signed-in account's role and says nothing, and a
 * role without a translated name is left out rather than shown as its machine name.
 */
export const SHOWN_ROLES = ['staff', 'handler', 'handler_admin', 'api_client'] as const;

export function roleLabelKeys(roles: readonly string[]): string[] {
  return SHOWN_ROLES.filter((r) => roles.includes(r)).map((r) => `profile.role_${r}`);
}
