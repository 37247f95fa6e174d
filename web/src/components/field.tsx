import { theme } from 'antd';
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

/**
 * A labelled form field without antd's Form machinery (used where the first load must stay small, e.g. /signin):
 * a <label for>, the control, and an error announced to screen readers (aria-invalid, aria-describedby).
 */
export function Field({
  label,
  error,
  children,
}: {
  label: ReactNode;
  error?: string | null;
  children: ReactElement<Record<string, unknown>>;
}) {
  const { token } = theme.useToken();
  const id = useId();
  const errorId = `${id}-error`;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id,
        status: error ? 'error' : undefined,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? errorId : undefined,
      })
    : children;
  return (
    <div style={{ marginBottom: error ? 8 : 24 }}>
      <label
        htmlFor={id}
        style={{ display: 'block', paddingBottom: 8, color: token.colorTextHeading, fontSize: token.fontSize }}
      >
        {label}
      </label>
      {control}
      <div
        id={errorId}
        role={error ? 'alert' : undefined}
        style={{ minHeight: error ? 24 : 0, color: token.colorErrorText, fontSize: token.fontSize, lineHeight: '24px' }}
      >
        {error ?? null}
      </div>
    </div>
  );
}
