import { theme } from 'antd';
import type { ButtonHTMLAttributes, CSSProperties } from 'react';

/**
 * A native <button> styled like Ant Design's (primary or default; small, middle or large; block; loading), coloured
 * from the theme's tokens. Used on /signin, whose first load must stay under its size budget: antd's Button brings
 * the wave effect, compact spaces and their styles.
 */
export function PlainButton({
  variant = 'default',
  size = 'middle',
  block = false,
  loading = false,
  disabled,
  className,
  style,
  children,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'default';
  size?: 'small' | 'middle' | 'large';
  block?: boolean;
  loading?: boolean;
}) {
  const { token } = theme.useToken();
  const vars = {
    '--pb-primary': token.colorPrimary,
    '--pb-primary-hover': token.colorPrimaryHover,
    '--pb-primary-active': token.colorPrimaryActive,
    '--pb-on-primary': token.colorTextLightSolid,
    '--pb-bg': token.colorBgContainer,
    '--pb-text': token.colorText,
    '--pb-border': token.colorBorder,
    '--pb-radius': `${size === 'large' ? token.borderRadiusLG : size === 'small' ? token.borderRadiusSM : token.borderRadius}px`,
    '--pb-disabled-bg': token.colorBgContainerDisabled,
    '--pb-disabled-text': token.colorTextDisabled,
  } as CSSProperties;
  const classes = [
    'portal-btn',
    `portal-btn-${variant}`,
    `portal-btn-${size}`,
    block ? 'portal-btn-block' : '',
    loading ? 'portal-btn-loading' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      {...props}
      type={type}
      className={classes}
      style={{ ...vars, ...style }}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <span className="portal-btn-spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** A horizontal rule with a word in the middle ("or"), like antd's plain Divider. */
export function TextDivider({ children }: { children: string }) {
  const { token } = theme.useToken();
  return (
    <div
      role="separator"
      className="portal-divider"
      style={{ color: token.colorText, ['--pd-line' as string]: token.colorSplit }}
    >
      <span>{children}</span>
    </div>
  );
}

/** A message box like antd's Alert (info, success, warning, error) without its icons and motion: light for /signin. */
export function Notice({
  type,
  title,
  children,
  role,
  style,
}: {
  type: 'info' | 'success' | 'warning' | 'error';
  title?: React.ReactNode;
  children?: React.ReactNode;
  role?: 'alert' | 'status';
  style?: CSSProperties;
}) {
  const { token } = theme.useToken();
  const colors = {
    info: [token.colorInfoBg, token.colorInfoBorder],
    success: [token.colorSuccessBg, token.colorSuccessBorder],
    warning: [token.colorWarningBg, token.colorWarningBorder],
    error: [token.colorErrorBg, token.colorErrorBorder],
  }[type];
  return (
    <div
      role={role}
      style={{
        background: colors[0],
        border: `1px solid ${colors[1]}`,
        borderRadius: token.borderRadiusLG,
        padding: title && children ? '16px 20px' : '8px 12px',
        color: token.colorText,
        lineHeight: 1.5715,
        ...style,
      }}
    >
      {title ? <div style={{ fontSize: children ? 16 : 14, marginBottom: children ? 8 : 0 }}>{title}</div> : null}
      {children}
    </div>
  );
}
