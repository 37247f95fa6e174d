import { useQuery } from '@tanstack/react-query';
import { Alert, Skeleton, Typography } from 'antd';
import { boardQuery, type Board } from '../api/council-api';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';

/** The handlers of a month's board whose forms 1-3 are not all certified, by handler number. */
export function handlersMissingFilings(
  board: Board,
): Array<{ handler_number: string; handler_name: string; forms: string[] }> {
  const out = new Map<string, { handler_number: string; handler_name: string; forms: string[] }>();
  for (const r of board.data) {
    if (r.status === 'certified' || r.status === 'amended') continue;
    const h = out.get(r.handler_id) ?? { handler_number: r.handler_number, handler_name: r.handler_name, forms: [] };
    h.forms.push(r.form);
    out.set(r.handler_id, h);
  }
  return [...out.values()];
}

/** Newest month whose filings are due (due date today or before), else the first month: the month to generate. */
export function monthToGenerate<T extends { period_month: string; due_date: string }>(
  periods: T[],
  today: string,
): T | undefined {
  return (
    [...periods]
      .filter((p) => p.due_date <= today)
      .sort((a, b) => a.period_month.localeCompare(b.period_month))
      .at(-1) ?? periods[0]
  );
}

/**
 * What publishing a month's report leaves out, said before it is published: nothing to publish (no handler's
 * filings: the server refuses it too), or the handlers whose filings are missing.
 */
export function PublishCheck({ periodId, handlersCount }: { periodId: string; handlersCount: number }) {
  const { t } = useFeatureTranslation(['staffHome', 'councilOps']);
  const board = useQuery({
    // The board page's key with no status filter: the two share what they read.
    ...boardQuery({ period_id: periodId, status: undefined }),
    enabled: handlersCount > 0,
  });
  if (handlersCount === 0) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('publish.nothing')}
        style={{ maxWidth: 360 }}
        data-testid="publish-nothing"
      />
    );
  }
  if (board.isPending) return <Skeleton active paragraph={{ rows: 1 }} />;
  if (!board.data) return null;
  const missing = handlersMissingFilings(board.data);
  if (missing.length === 0) return <Typography.Text>{t('publish.complete')}</Typography.Text>;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ maxWidth: 380 }}
      data-testid="publish-missing"
      message={t('publish.missing', { count: missing.length })}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {missing.map((h) => (
            <li key={h.handler_number}>
              <strong>{h.handler_number}</strong> <bdi>{h.handler_name}</bdi>:{' '}
              {h.forms.map((f) => t(`councilOps:forms.${f}`)).join(', ')}
            </li>
          ))}
        </ul>
      }
    />
  );
}
