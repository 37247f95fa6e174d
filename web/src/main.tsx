import '@ant-design/v5-patch-for-react-19';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { DashboardLayout, loadDashboard } from './app/dashboard-pages';
import { AppRouter } from './app/router';
import { initI18n } from './lib/i18n/i18n';
import { startSession } from './lib/session/session';
import { sessionStore } from './lib/session/session-store';
import './app/global.css';

startSession();

// A load of a signed-in page: index.html has already asked for its layout's chunks (and the home page's), so wait
// for them to run (and for the home page's texts) before the first render. Rendering first would show a loader,
// then each page through its own Suspense round, each reveal held back by React for up to 300 ms. Not a top-level
// await: those chunks import this entry chunk, which must have finished running for them to load.
async function pagesOfThisAddress(): Promise<void> {
  const path = location.pathname.replace(/\/+$/, '');
  // Signed out, the page is a redirect to /signin: nothing to wait for.
  if (!path.startsWith('/dashboard') || !sessionStore.getSnapshot().token) return;
  const home = path === '/dashboard';
  await (home ? loadDashboard() : DashboardLayout.preload()).catch(() => undefined);
}

// The first render as a transition: React then renders in slices of a few milliseconds, yielding to the browser
// between them, instead of one task of several hundred milliseconds on a slow phone (antd computes its styles while
// rendering). Nothing is on screen before it, so nothing waits longer for it; the page is the same.
function render(): void {
  startTransition(() => {
    createRoot(document.getElementById('root') as HTMLElement).render(
      <StrictMode>
        <AppProviders>
          <AppRouter />
        </AppProviders>
      </StrictMode>,
    );
  });
}

void Promise.all([initI18n(), pagesOfThisAddress()]).then(render);
