/** Storage keys. The first is the OAuth provider's token entry; the others are the spec's (section 9). */
export const OAUTH_TOKEN_KEY = 'oauth_token';

export const STORAGE_KEYS = {
  idToken: 'id_token',
  username: 'username',
  userUid: 'user_uid',
  userFirstName: 'user_firstname',
  handlerUid: 'handler_uid',
  handlerName: 'handler_name',
  handlerNumber: 'handler_number',
  handlerStatus: 'handler_status',
  handlerProfile: 'handler_profile',
  userRoles: 'user_roles',
  invoices: 'invoices',
  formsPackages: 'forms_packages',
  seasons: 'seasons',
  industryAnalytics: 'industry_analytics',
  yearEndForms: 'year_end_forms',
  ihTransfers: 'ih_transfers',
  newFormCertification: 'new_form_certification',
  newYearEndFormCertification: 'new_year_end_form_certification',
  augForm1AmendReqd: 'aug_form1_amend_reqd',
  /** Cached copies: when each was saved ({key: ms}), and lists without a spec key of their own. */
  cacheSavedAt: 'cache_saved_at',
  cachedLists: 'cached_lists',
} as const;

/** Every key the session owns; all are removed on logout. */
export const SESSION_OWNED_KEYS: readonly string[] = [OAUTH_TOKEN_KEY, ...Object.values(STORAGE_KEYS)];
