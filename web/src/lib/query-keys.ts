/** Query keys shared by the login sequence (which seeds the cache) and the data pages. */
export const queryKeys = {
  me: ['me'] as const,
  handler: (id: string) => ['handler', id] as const,
  seasons: ['seasons'] as const,
  formsPackages: (handlerId: string) => ['forms-packages', handlerId] as const,
  industryAnalytics: ['industry-analytics'] as const,
};
