import { lazy } from 'react';
import { warmUpIntl } from '../lib/i18n/format';
import { i18n } from '../lib/i18n/i18n';
import { lazyPage } from '../lib/lazy-page';
import { setSignInPreload } from '../lib/sign-in-preload';
import { whenIdle } from '../lib/when-idle';

/**
 * The pages a sign-in lands on, shared by the router and the sign-in page, which loads them ahead (preloadDashboard).
 */
export const DashboardLayout = lazyPage(() => import('./layout/dashboard-layout'));
export const DashboardHome = lazyPage(() => import('../features/dashboard/components/dashboard-home'));
/** The forms' card of stale months on the dashboard: loaded only when the dashboard shows it. */
export const StaleMonthsCard = lazy(() =>
  import('../features/forms/components/stale-months').then((m) => ({ default: m.StaleMonthsCard })),
);
/** The council staff's home (features/council-ops): its own chunk, never loaded for a handler's dashboard. */
export const StaffHome = lazy(() => import('../features/council-ops/components/staff-home'));

/** The layout, the home page and the data pages' texts in the current language, loaded and run. */
export async function loadDashboard(): Promise<void> {
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  await Promise.all([
    DashboardLayout.preload(),
    DashboardHome.preload(),
    import('../lib/i18n/filing-namespace').then(({ loadFilingNamespace }) => loadFilingNamespace(language)),
  ]);
}

/**
 * What the dashboard needs, loaded while the user types and the password is checked, so the dashboard renders as
 * soon as its data is in, without a chunk or a text to wait for; and the browser's locale data for dates and
 * amounts (its first use costs tens of ms), once the main thread is idle, not in the keystroke's own task. Each is
 * loaded once whoever asks first; failures are left to the router.
 */
export function preloadDashboard(): void {
  whenIdle(() => warmUpIntl(i18n.resolvedLanguage ?? i18n.language ?? 'en'));
  loadDashboard().catch(() => undefined);
}

// The sign-in page (features/auth) loads these ahead through lib/sign-in-preload.ts: a feature does not import app/.
setSignInPreload(preloadDashboard);
