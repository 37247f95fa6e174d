import { theme } from 'antd';
import type { CSSProperties, SelectHTMLAttributes } from 'react';

/**
 * A browser's own <select>, styled with the theme's tokens: labelled, keyboard- and screen-reader-friendly, and
 * light enough for the first load of a page (antd's Select weighs some 23 KB gzip, more than its page's own code).
 * For short lists of choices that need no search: the language, the season.
 */
export function NativeSelect({
  colors,
  style,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { colors?: { text: string; border: string; bg: string } }) {
  const { token } = theme.useToken();
  const look: CSSProperties = {
    font: 'inherit',
    fontSize: 14,
    color: colors?.text ?? token.colorText,
    background: colors?.bg ?? token.colorBgContainer,
    border: `1px solid ${colors?.border ?? token.colorBorder}`,
    borderRadius: token.borderRadius,
    padding: '4px 8px',
    height: 32,
    cursor: props.disabled ? 'not-allowed' : 'pointer',
    ...style,
  };
  return <select {...props} style={look} />;
}

/** Options keep dark text on white: a dark theme's colours are not applied to the browser's own drop-down list. */
export const NATIVE_OPTION_STYLE: CSSProperties = { color: '#1f1f1f', background: '#ffffff' };
