import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_THEME, THEME_STORAGE_KEY, parseThemeSettings, type ThemeSettings } from './themes';

interface ThemeContextValue {
  settings: ThemeSettings;
  update: (patch: Partial<ThemeSettings>) => void;
  reset: () => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

function readStored(): ThemeSettings {
  try {
    return parseThemeSettings(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return DEFAULT_THEME;
  }
}

export function ThemeSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<ThemeSettings>(readStored);
  const persist = useCallback((next: ThemeSettings) => {
    setSettings(next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify(next));
    } catch {
      /* storage refused */
    }
  }, []);
  const value = useMemo<ThemeContextValue>(
    () => ({ settings, update: (patch) => persist({ ...settings, ...patch }), reset: () => persist(DEFAULT_THEME) }),
    [settings, persist],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useThemeSettings(): ThemeContextValue {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useThemeSettings outside ThemeSettingsProvider');
  return ctx;
}
