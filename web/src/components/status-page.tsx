import { theme } from 'antd';
import { PlainButton } from './plain-button';
import type { ReactNode } from 'react';

interface StatusPageProps {
  code?: string;
  title: string;
  text?: string;
  action?: { label: string; onClick: () => void };
  extra?: ReactNode;
  /** Render as the page's own <main> landmark (outside the dashboard layout). */
  standalone?: boolean;
}

/** 404, 500 and load failures: a big code, a heading, a sentence and one action. */
export function StatusPage({ code, title, text, action, extra, standalone = true }: StatusPageProps) {
  const { token } = theme.useToken();
  const body = (
    <div
      style={{
        maxWidth: 560,
        margin: '0 auto',
        padding: '12vh 24px 48px',
        textAlign: 'center',
        color: token.colorText,
        fontFamily: token.fontFamily,
      }}
    >
      {code ? (
        <div
          aria-hidden="true"
          style={{ fontSize: 96, fontWeight: 800, lineHeight: 1, letterSpacing: 4, color: '#a0612a' }}
        >
          {code}
        </div>
      ) : null}
      <h1 style={{ fontSize: 28, fontWeight: 600, margin: '16px 0 8px', color: token.colorTextHeading }}>{title}</h1>
      {text ? <p style={{ fontSize: 16, lineHeight: 1.6, margin: '0 0 24px' }}>{text}</p> : null}
      {action ? (
        <PlainButton variant="primary" size="large" onClick={action.onClick}>
          {action.label}
        </PlainButton>
      ) : null}
      {extra}
    </div>
  );
  return standalone ? <main style={{ minHeight: '100vh', background: token.colorBgLayout }}>{body}</main> : body;
}
