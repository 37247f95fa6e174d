import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { formatNumber } from '../../../lib/i18n/format';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import type { ChartData } from './chart-types';

/** Out of sight but read by screen readers (the usual "visually hidden" rules). */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
};

/**
 * The figures of a chart as a table: months down the side, a column per series. Screen readers always have it;
 * sighted readers see it when they ask ("Show as table").
 */
export function ChartTable({ data, id, shown }: { data: ChartData; id: string; shown: boolean }) {
  const { t } = useFeatureTranslation(['analytics']);
  const { token } = theme.useToken();
  const cell: CSSProperties = {
    padding: '4px 8px',
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
    textAlign: 'start',
  };
  const num: CSSProperties = { ...cell, textAlign: 'end', fontVariantNumeric: 'tabular-nums' };
  return (
    <div id={id} style={shown ? { overflowX: 'auto', marginTop: 8 } : VISUALLY_HIDDEN}>
      <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 14, color: token.colorText }}>
        <caption style={{ textAlign: 'start', fontWeight: 600, paddingBottom: 4 }}>{data.title}</caption>
        <thead>
          <tr>
            <th scope="col" style={cell}>
              {t('analytics:month')}
            </th>
            {data.series.map((s) => (
              <th key={s.name} scope="col" style={{ ...cell, textAlign: 'end' }}>
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.months.map((m, i) => (
            <tr key={`${m}-${i}`}>
              <th scope="row" style={{ ...cell, fontWeight: 400 }}>
                {m}
              </th>
              {data.series.map((s) => (
                <td key={s.name} style={num}>
                  {s.values[i] === null || s.values[i] === undefined
                    ? t('analytics:noFigure')
                    : formatNumber(s.values[i], data.lang)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
