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
