import { theme } from 'antd';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useFeatureTranslation } from '../../../lib/i18n/feature-namespaces';
import { formatNumber } from '../../../lib/i18n/format';
import { languageInfo } from '../../../lib/i18n/languages';
import type { ChartData } from './chart-types';

const FONT_SIZE = 13;

/** Rows for recharts: one per month, a key per series. */
function rowsOf({ months, series }: ChartData): Record<string, string | number | null>[] {
  return months.map((month, i) => {
    const row: Record<string, string | number | null> = { month };
    series.forEach((s, k) => (row[`s${k}`] = s.values[i] ?? null));
    return row;
  });
}

/**
 * A line chart of one figure by month, this season against the last (recharts, docs/decisions/0017). Tooltips on
 * hover and on the keyboard (the chart is one tab stop; the arrow keys move along the months, mirrored in right to
 * left), a legend, the theme's colours. Loaded only with the analytics page.
 */
export default function SeasonChart(props: ChartData) {
  const { title, unit, series, lang } = props;
  const { t } = useFeatureTranslation(['analytics']);
  const { token } = theme.useToken();
  const rtl = languageInfo(lang).dir === 'rtl';
  const colors = [token.colorPrimary, token.colorTextSecondary];
  const tick = { fontSize: FONT_SIZE, fill: token.colorTextSecondary };
  const compact = (v: number) => formatNumber(v, lang, { notation: 'compact', maximumFractionDigits: 1 });
  return (
    <div style={{ width: '100%', height: 280 }} data-testid="season-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart
          data={rowsOf(props)}
          title={title}
          margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
          accessibilityLayer
        >
          <CartesianGrid stroke={token.colorBorderSecondary} vertical={false} />
          {/* Right to left: the months run from the right, and the pounds stand on the right. */}
          <XAxis
            dataKey="month"
            reversed={rtl}
            tick={tick}
            stroke={token.colorBorder}
            interval="preserveStartEnd"
            minTickGap={12}
          />
          <YAxis
            orientation={rtl ? 'right' : 'left'}
            tick={tick}
            tickFormatter={compact}
            stroke={token.colorBorder}
            width={52}
          />
          <Tooltip
            formatter={(v) => (typeof v === 'number' ? `${formatNumber(v, lang)} ${unit}` : t('analytics:noFigure'))}
            contentStyle={{
              background: token.colorBgElevated,
              border: `1px solid ${token.colorBorder}`,
              borderRadius: token.borderRadius,
              color: token.colorText,
              fontSize: 14,
              direction: rtl ? 'rtl' : 'ltr',
              textAlign: rtl ? 'right' : 'left',
            }}
            labelStyle={{ color: token.colorText, fontWeight: 600 }}
            cursor={{ stroke: token.colorBorder }}
          />
          {/* A fixed height: recharts measures the legend once, before the Arabic font has loaded, and the taller text
              then ran over the month labels. Two lines of 22 px hold both seasons at every width. */}
          <Legend
            wrapperStyle={{
              fontSize: 14,
              lineHeight: '22px',
              height: 48,
              color: token.colorText,
              direction: rtl ? 'rtl' : 'ltr',
            }}
          />
          {series.map((s, k) => (
            <Line
              key={s.name}
              dataKey={`s${k}`}
              name={s.name}
              stroke={colors[k % colors.length]}
              strokeWidth={2.5}
              strokeDasharray={s.dashed ? '6 4' : undefined}
              dot={{ r: 3.5, fill: colors[k % colors.length] }}
              activeDot={{ r: 6 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
