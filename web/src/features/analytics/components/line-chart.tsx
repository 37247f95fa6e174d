import { theme } from 'antd';
import { formatNumber } from '../../../lib/i18n/format';

export interface Series {
  name: string;
  values: (number | null)[];
  dashed?: boolean;
  color: string;
}

/** A small SVG line chart: months along the bottom, pounds up the side, one line per series. No library. */
export function LineChart({
  title,
  months,
  series,
  lang,
  unit,
}: {
  title: string;
  months: string[];
  series: Series[];
  lang: string;
  unit: string;
}) {
  const { token } = theme.useToken();
  const W = 560;
  const H = 240;
  const pad = { l: 64, r: 12, t: 12, b: 36 };
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const max = Math.max(1, ...all);
  const step = niceStep(max / 4);
  const top = Math.ceil(max / step) * step;
  const x = (i: number) => pad.l + (i * (W - pad.l - pad.r)) / Math.max(1, months.length - 1);
  const y = (v: number) => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const ticks = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  const compact = (v: number) => formatNumber(v, lang, { notation: 'compact', maximumFractionDigits: 1 });
  const summary = series
    .map(
      (s) =>
        `${s.name}: ${s.values.map((v, i) => `${months[i]} ${v === null ? '—' : formatNumber(v, lang)}`).join(', ')}`,
    )
    .join('. ');
  return (
    <figure style={{ margin: 0 }} dir="ltr">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-label={`${title} (${unit}). ${summary}`}
        style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} stroke={token.colorBorderSecondary} />
            <text x={pad.l - 6} y={y(v) + 4} textAnchor="end" fontSize="11" fill={token.colorTextSecondary}>
              {compact(v)}
            </text>
          </g>
        ))}
        {months.map((m, i) => (
          <text
            key={m + i}
            x={x(i)}
            y={H - pad.b + 16}
            textAnchor="middle"
            fontSize="11"
            fill={token.colorTextSecondary}
          >
            {m}
          </text>
        ))}
        {series.map((s) => {
          const pts = s.values.map((v, i) => (v === null ? null : ([x(i), y(v)] as const)));
          const segs: string[] = [];
          let cur = '';
          for (const p of pts) {
            if (!p) {
              if (cur) segs.push(cur);
              cur = '';
            } else cur += `${cur ? 'L' : 'M'}${p[0].toFixed(1)},${p[1].toFixed(1)}`;
          }
          if (cur) segs.push(cur);
          return (
            <g key={s.name}>
              {segs.map((d, i) => (
                <path
                  key={i}
                  d={d}
                  fill="none"
                  stroke={s.color}
                  strokeWidth={2.5}
                  strokeDasharray={s.dashed ? '6 4' : undefined}
                />
              ))}
              {pts.map((p, i) => (p ? <circle key={i} cx={p[0]} cy={p[1]} r={3.5} fill={s.color} /> : null))}
            </g>
          );
        })}
      </svg>
      <figcaption
        style={{ display: 'flex', gap: 16, flexWrap: 'wrap', fontSize: 13, marginTop: 4, justifyContent: 'center' }}
      >
        {series.map((s) => (
          <span key={s.name} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <svg width="28" height="8" aria-hidden="true">
              <line
                x1="0"
                x2="28"
                y1="4"
                y2="4"
                stroke={s.color}
                strokeWidth="3"
                strokeDasharray={s.dashed ? '6 4' : undefined}
              />
            </svg>
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function niceStep(raw: number): number {
  const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
  const n = raw / p;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * p;
}
