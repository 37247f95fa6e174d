/** Every key of the packages queries starts with this, so one invalidation refreshes them all. */
export const PACKAGES_KEY = 'forms-packages';

/** The newest monthly position report (the dashboard's card; the login sequence seeds it). */
export const newestReportKey = ['monthly-position-reports', 'newest'] as const;

/** A handler's packet confirmation of a season (the dashboard's card; the login sequence seeds it). */
export const confirmationKey = (handlerId: string, seasonId: string) =>
  ['packet-confirmation', handlerId, seasonId] as const;

/** Query keys shared by the login sequence (which seeds the cache) and the data pages. */
export const queryKeys = {
  me: ['me'] as const,
  handler: (id: string) => ['handler', id] as const,
  seasons: ['seasons'] as const,
  // Under the packages' key, so that a certification or an amendment refreshes it with them.
  nextPackage: (handlerId: string, dueBefore: string) => [PACKAGES_KEY, handlerId, 'next', dueBefore] as const,
  industryAnalytics: ['industry-analytics'] as const,
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
