import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './query-state';

/**
 * A write that failed: what failed (the title), why (the server's problems as a list, or its message), and what to do
 * about it (an optional action such as Reload after a conflict).
 */
export function WriteErrorAlert({
  error,
  title,
  problems,
  description,
  action,
}: {
  error: unknown;
  title: ReactNode;
  /** The server's reasons, one per line (e.g. the details of a 422, each maybe a link to its field). */
  problems?: ReactNode[];
  /** Instead of the server's message. */
  description?: ReactNode;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const list = problems?.filter(Boolean) ?? [];
  const body =
    description ??
    (list.length ? (
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {list.map((m, i) => (
          <li key={i}>{m}</li>
        ))}
      </ul>
    ) : (
      errorText(error, t('dataState.unknownError'))
    ));
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      style={{ marginBottom: 16 }}
      message={title}
      description={body}
      action={action}
    />
  );
}
