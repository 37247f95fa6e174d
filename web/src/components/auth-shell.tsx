import { theme } from 'antd';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from './language-switcher';
import { useDocumentTitle } from './use-document-title';
import { useThemeSettings } from '../lib/theme/theme-context';

function Mark() {
  return (
    <svg width="44" height="44" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <ellipse cx="32" cy="34" rx="18" ry="26" fill="#8a4b14" />
      <path d="M32 10v48" stroke="#f5e6d3" strokeWidth="3" />
      <path d="M22 22c4 4 4 20 0 26M42 22c-4 4-4 20 0 26" stroke="#f5e6d3" strokeWidth="2" fill="none" opacity=".7" />
    </svg>
  );
}

/**
 * The frame of the signed-out pages: a centred panel with the portal's mark, a heading and the language switcher.
 * Plain elements styled with the theme's tokens keep the first load of /signin small.
 */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  useDocumentTitle(title);
  const { token } = theme.useToken();
  const { settings } = useThemeSettings();
  const background = settings.dark
    ? 'linear-gradient(160deg, #1b1611 0%, #141414 60%, #0d1a2b 100%)'
    : 'linear-gradient(160deg, #f7f1e8 0%, #efe3d0 45%, #e2ecf8 100%)';
  return (
    <div
      style={{
        minHeight: '100vh',
        background,
        display: 'flex',
        flexDirection: 'column',
        color: token.colorText,
        fontFamily: token.fontFamily,
      }}
    >
      <header style={{ display: 'flex', justifyContent: 'flex-end', padding: 16 }}>
        <LanguageSwitcher />
      </header>
      <main
        style={{
          flex: 1,
          display: 'flex',
          alignItems: 'flex-start',
          justifyContent: 'center',
          padding: '2vh 16px 48px',
        }}
      >
        <div
          style={{
            width: '100%',
            maxWidth: wide ? 520 : 420,
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            border: `1px solid ${token.colorBorderSecondary}`,
            boxShadow: '0 10px 30px rgba(74,44,18,0.12)',
            padding: '32px 28px',
            boxSizing: 'border-box',
          }}
        >
          <div
            style={{
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              textAlign: 'center',
              marginBottom: 20,
            }}
          >
            <Mark />
            <h1
              style={{
                fontSize: 26,
                fontWeight: 600,
                lineHeight: 1.3,
                margin: '12px 0 4px',
                color: token.colorTextHeading,
              }}
            >
              {title}
            </h1>
            {subtitle ? (
              <p style={{ margin: 0, color: token.colorTextDescription, fontSize: 14, lineHeight: 1.6 }}>{subtitle}</p>
            ) : null}
          </div>
          {children}
        </div>
      </main>
      {footer ? <footer style={{ textAlign: 'center', padding: '0 16px 24px' }}>{footer}</footer> : null}
    </div>
  );
}

/** A centred line under the form (links). */
export function AuthFootnote({ children }: { children: ReactNode }) {
  return <p style={{ textAlign: 'center', margin: '20px 0 0', lineHeight: 1.6 }}>{children}</p>;
}
