import { theme } from 'antd';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * Native inputs styled like Ant Design's (border, radius, focus ring from the theme tokens). Used on /signin, whose
 * first load must stay under its size budget: antd's Input and Checkbox pull in the whole Form engine.
 */
export function TextInput({
  prefix,
  status,
  style,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> & { prefix?: ReactNode; status?: 'error' }) {
  const { token } = theme.useToken();
  return (
    <span
      className="portal-input"
      style={{
        ['--pi-border' as string]: status === 'error' ? token.colorError : token.colorBorder,
        ['--pi-focus' as string]: status === 'error' ? token.colorError : token.colorPrimary,
        ['--pi-bg' as string]: token.colorBgContainer,
        ['--pi-text' as string]: token.colorText,
        ['--pi-muted' as string]: token.colorTextDescription,
        ['--pi-radius' as string]: `${token.borderRadiusLG}px`,
        ['--pi-disabled' as string]: token.colorBgContainerDisabled,
        ...style,
      }}
    >
      {prefix ? <span className="portal-input-affix">{prefix}</span> : null}
      <input {...props} />
    </span>
  );
}

export function PasswordInput({
  showLabel,
  hideLabel,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> & {
  prefix?: ReactNode;
  status?: 'error';
  showLabel: string;
  hideLabel: string;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <span style={{ position: 'relative', display: 'block' }}>
      <TextInput {...props} type={visible ? 'text' : 'password'} style={{ paddingInlineEnd: 40 }} />
      <button
        type="button"
        className="portal-input-toggle"
        aria-label={visible ? hideLabel : showLabel}
        aria-pressed={visible}
        onClick={() => setVisible((v) => !v)}
      >
        <svg
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          aria-hidden="true"
        >
          <path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" />
          <circle cx="12" cy="12" r="3" />
          {visible ? null : <path d="M3 3l18 18" />}
        </svg>
      </button>
    </span>
  );
}

export function CheckboxInput({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <label style={{ display: 'inline-flex', alignItems: 'center', gap: 8, cursor: 'pointer', color: token.colorText }}>
      <input
        type="checkbox"
        {...props}
        style={{ width: 16, height: 16, margin: 0, accentColor: token.colorPrimary, cursor: 'pointer' }}
      />
      {label}
    </label>
  );
}
