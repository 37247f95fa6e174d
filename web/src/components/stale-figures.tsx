import { Typography } from 'antd';
import type { StaleFigure } from '@pecan/contract';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/i18n/format';
import { fieldLabel } from './field-text';

/**
 * The figures of a certified form 1 that an amendment of an earlier month made stale: each with the value it was
 * certified with and the corrected one. Shown on the submissions board, the handler's dashboard and the form page.
 * Plain text and a list only: the dashboard's first paint has no styles for more (web/scripts/dashboard-styles.tsx).
 */
export function StaleFigures({
  figures,
  compact,
  titled,
}: {
  figures: readonly StaleFigure[];
  compact?: boolean;
  titled?: boolean;
}) {
  const { t, i18n } = useTranslation('filing');
  const lb = (n: number) => formatNumber(n, i18n.language);
  return (
    <div data-testid="stale-figures">
      {titled ? (
        <Typography.Text strong style={{ fontSize: compact ? 12 : undefined }}>
          {t('stale.title')}
        </Typography.Text>
      ) : null}
      <ul style={{ margin: '4px 0 0', paddingInlineStart: compact ? 16 : 20, fontSize: compact ? 12 : undefined }}>
        {figures.map((f) => (
          <li key={f.field}>
            <Typography.Text style={{ fontSize: 'inherit' }}>
              {fieldLabel(t, f.field)}: {t('stale.certified')} {lb(f.certified)},{' '}
              <strong>
                {t('stale.corrected')} {lb(f.corrected)}
              </strong>
            </Typography.Text>
          </li>
        ))}
      </ul>
    </div>
  );
}
