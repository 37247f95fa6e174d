import type { ReactNode } from 'react';
import { useFilingNamespace } from '../lib/i18n/filing-namespace';
import { PageLoader } from './page-loader';

/** Wraps a data page: waits for the filing texts of the current language before rendering it. */
export function FilingPage({ children }: { children: ReactNode }) {
  const ready = useFilingNamespace();
  return ready ? <>{children}</> : <PageLoader />;
}
