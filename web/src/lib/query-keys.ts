/** Query keys shared by the login sequence (which seeds the cache) and the data pages. */
export const queryKeys = {
  me: ['me'] as const,
  handler: (id: string) => ['handler', id] as const,
  seasons: ['seasons'] as const,
  // Under the packages' key (PACKAGES_KEY), so that a certification or an amendment refreshes it with them.
  nextPackage: (handlerId: string, dueBefore: string) => ['forms-packages', handlerId, 'next', dueBefore] as const,
  industryAnalytics: ['industry-analytics'] as const,
};
