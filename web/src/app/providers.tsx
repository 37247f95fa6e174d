import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { enUS, loadAntdLocale } from '../lib/i18n/antd-locale';
import { languageInfo, type LanguageCode } from '../lib/i18n/languages';
import { ThemeSettingsProvider, useThemeSettings } from '../lib/theme/theme-context';
import { buildAntdTheme } from '../lib/theme/themes';
import { ApiError } from '../lib/http/errors';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 60_000,
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      // Deserialized JSON:API documents link resources to each other in cycles, which structural sharing would
      // walk forever on a refetch.
      structuralSharing: false,
    },
  },
});

function AntdConfig({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { settings } = useThemeSettings();
  const [locale, setLocale] = useState<Locale>(enUS);
  const code = (i18n.resolvedLanguage ?? i18n.language) as LanguageCode;
  const info = languageInfo(code);

  useEffect(() => {
    let cancelled = false;
    loadAntdLocale(info.code).then(
      (l) => !cancelled && setLocale(l),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [info.code]);

  const theme = useMemo(() => buildAntdTheme(settings), [settings]);

  useEffect(() => {
    const root = document.documentElement.style;
    root.colorScheme = settings.dark ? 'dark' : 'light';
    root.setProperty('--portal-link', theme.token?.colorLink ?? '#0958d9');
    document.body.style.background = theme.token?.colorBgLayout ?? '';
    document.body.style.color = settings.dark ? 'rgba(255,255,255,0.85)' : 'rgba(0,0,0,0.88)';
  }, [settings.dark, theme]);
  return (
    <ConfigProvider locale={locale} direction={info.dir} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeSettingsProvider>
        <AntdConfig>{children}</AntdConfig>
      </ThemeSettingsProvider>
    </QueryClientProvider>
  );
}
