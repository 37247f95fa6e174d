/** Every key of the packages queries starts with this, so one invalidation refreshes them all. */
export const PACKAGES_KEY = 'forms-packages';

/** The newest monthly position report (the dashboard's card; the login sequence seeds it). */
export const newestReportKey = ['monthly-position-reports', 'newest'] as const;

/** A handler's packet confirmation of a season (the dashboard's card; the login sequence seeds it). */
export const confirmationKey = (handlerId: string, seasonId: string) =>
  ['packet-confirmation', handlerId, seasonId] as const;

/**
 * Query keys shared by the login sequence (which seeds the cache) and the data pages, and the roots that a write in
 * one feature invalidates in another (a certification refreshes the packages, the forms and the invoices). Each
 * feature's own keys are in its api/ folder, beside the fetchers, and start with these roots where they share them.
 */
export const queryKeys = {
  me: ['me'] as const,
  handler: (id: string) => ['handler', id] as const,
  seasons: ['seasons'] as const,
  // Under the packages' key, so that a certification or an amendment refreshes it with them.
  nextPackage: (handlerId: string, dueBefore: string) => [PACKAGES_KEY, handlerId, 'next', dueBefore] as const,
  industryAnalytics: ['industry-analytics'] as const,
  /** Every read of packages (and what a certification changes with them: form 1 context, stale months). */
  packages: [PACKAGES_KEY] as const,
  /** Every read of a form (forms 1-3, forms/api: formKeys). */
  forms: ['form'] as const,
  /** Every read of invoices (lib/portal/invoices.ts). */
  invoices: ['invoices'] as const,
  /** Every read of transfers (forms 4), the dashboard's count awaiting countersignature among them. */
  transfers: ['transfers'] as const,
  /** Every read of the directory's contacts (a profile change shows there). */
  contacts: ['contacts'] as const,
  /** Every read of packet confirmations. */
  packetConfirmations: ['packet-confirmation'] as const,
};

/**
 * The council console's reads, in both council features (`council-admin`, `council-ops`): every key starts with
 * 'council', so that one invalidation (a season made current) refreshes them all. Both features keep the same data
 * under the keys below: the seasons as a list (`Season[]`) and a season's `Calendar`.
 */
export const councilKeys = {
  all: ['council'] as const,
  seasons: ['council', 'seasons'] as const,
  calendar: (seasonId: string | null | undefined) => ['council', 'calendar', seasonId ?? 'current'] as const,
};
