import '@ant-design/v5-patch-for-react-19';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { initI18n } from './lib/i18n/i18n';
import { startSession } from './lib/session/session';
import './app/global.css';

startSession();
await initI18n();

// The first render as a transition: React then renders in slices of a few milliseconds, yielding to the browser
// between them, instead of one task of several hundred milliseconds on a slow phone (antd computes its styles while
// rendering). Nothing is on screen before it, so nothing waits longer for it; the page is the same.
startTransition(() => {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <AppProviders>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
});
