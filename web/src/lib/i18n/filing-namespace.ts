import { useEffect, useState } from 'react';
import { i18n } from './i18n';

/**
 * The data pages' texts live in their own namespace ('filing'), loaded with the first data page and for each
 * language on demand, so the sign-in page's first load stays small.
 */
export const FILING_NS = 'filing';

const loaders = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*/filing.json');

export async function loadFilingNamespace(code: string): Promise<void> {
  const lang = code || 'en';
  const wanted = lang === 'en' ? ['en'] : [lang, 'en'];
  await Promise.all(
    wanted.map(async (l) => {
      if (i18n.hasResourceBundle(l, FILING_NS)) return;
      const loader = loaders[`../../locales/${l}/filing.json`];
      if (!loader) return;
      const mod = await loader();
      i18n.addResourceBundle(l, FILING_NS, mod.default, true, true);
    }),
  );
}

const current = () => i18n.resolvedLanguage ?? i18n.language ?? 'en';
const has = () => i18n.hasResourceBundle(current(), FILING_NS);

/** True once the portal texts of the current language are loaded; follows language changes. */
export function useFilingNamespace(): boolean {
  const [, setVersion] = useState(0);
  useEffect(() => {
    let cancelled = false;
    const load = () => {
      if (has()) return;
      loadFilingNamespace(current()).then(
        () => !cancelled && setVersion((v) => v + 1),
        () => !cancelled && setVersion((v) => v + 1),
      );
    };
    load();
    i18n.on('languageChanged', load);
    return () => {
      cancelled = true;
      i18n.off('languageChanged', load);
    };
  }, []);
  return has();
}
