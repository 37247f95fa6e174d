import { useTranslation } from 'react-i18next';
import { i18n } from './i18n';

/**
 * Feature namespaces: each feature keeps its texts in locales/<lang>/<feature>.json, loaded with the feature's
 * chunk (never on /signin). `useFeatureTranslation('transfers')` suspends (call it first) until the namespace is there
 * in the current language and in English (the fallback), then works as useTranslation.
 */
export const FEATURE_NAMESPACES = [
  'yearEnd',
  'transfers',
  'reports',
  'analytics',
  'directory',
  'profileEdit',
  'portalData',
  'councilAdmin',
  'councilOps',
  'account',
  'apiClients',
  'staffHome',
  'apiReference',
] as const;
export type FeatureNamespace = (typeof FEATURE_NAMESPACES)[number];

const loaders = import.meta.glob<{ default: Record<string, unknown> }>([
  '../../locales/*/*.json',
  '!../../locales/*/common.json',
]);
const pending = new Map<string, Promise<void>>();

export function loadFeatureNamespace(ns: FeatureNamespace, lng: string): Promise<void> {
  const id = `${lng}:${ns}`;
  let p = pending.get(id);
  if (!p) {
    const load = async (code: string) => {
      if (i18n.hasResourceBundle(code, ns)) return;
      const loader = loaders[`../../locales/${code}/${ns}.json`];
      if (!loader) return;
      const mod = await loader();
      i18n.addResourceBundle(code, ns, mod.default, true, true);
    };
    p = Promise.all([load('en'), lng === 'en' ? null : load(lng)]).then(() => undefined);
    pending.set(id, p);
    p.catch(() => pending.delete(id));
  }
  return p;
}

export function useFeatureTranslation(ns: FeatureNamespace | FeatureNamespace[]) {
  const list = Array.isArray(ns) ? ns : [ns];
  const result = useTranslation(list);
  const lng = result.i18n.resolvedLanguage ?? result.i18n.language;
  const missing = list.filter(
    (one) =>
      !i18n.hasResourceBundle('en', one) ||
      (lng !== 'en' && loaders[`../../locales/${lng}/${one}.json`] && !i18n.hasResourceBundle(lng, one)),
  );
  // Suspends the page (the route's <Suspense> shows the loader) until the texts are there. A thrown promise, not
  // use(): the component then renders afresh instead of being replayed with half its hooks.
  if (missing.length > 0) throw Promise.all(missing.map((one) => loadFeatureNamespace(one, lng)));
  return result;
}
