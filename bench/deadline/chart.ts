/**
 * The deadline run as an SVG chart, written by hand (two panels of lines need no library): above, the p99 latency
 * of each class of operation over time with its budget dashed; below, the requests a second; the steps marked with
 * their rate. Latency on a log scale, so that 2 ms and 2 s both read.
 */
import { BUDGET_MS, OP_CLASSES, type OpClass, type TimePoint } from './stats.js';

export interface ChartStep {
  rate: number;
  start: number;
  end: number;
  held: boolean;
}

const COLORS: Record<OpClass, string> = { read: '#1f77b4', save: '#2ca02c', certify: '#d62728', 'sign-in': '#9467bd' };
const RSS_COLOR = '#ff7f0e';
const W = 960;
const LEFT = 64;
const RIGHT = 150;
const PLOT_W = W - LEFT - RIGHT;
const TOP = { y: 40, h: 260 };
const BOTTOM = { y: 360, h: 160 };
const H = 570;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fmt = (x: number) => (Number.isInteger(x) || x >= 10 ? x.toFixed(0) : x.toFixed(1));

function niceMax(x: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(x, 1)));
  return [1, 2, 5, 10].map((k) => k * p).find((v) => v >= x) ?? 10 * p;
}

/** `rss`: the servers' memory, [seconds of the run, MB], drawn in the throughput panel on an axis of its own. */
export function deadlineChart(
  points: TimePoint[],
  steps: ChartStep[],
  title: string,
  rss: Array<[number, number]> = [],
): string {
  const end = Math.max(1, ...steps.map((s) => s.end), ...points.map((p) => p.t));
  const x = (t: number) => LEFT + (t / end) * PLOT_W;
  // Latency: log10 from 1 ms to the largest p99 (at least 1 s, so the certification budget shows).
  const worst = Math.max(1000, ...points.flatMap((p) => Object.values(p.p99)));
  const logMax = Math.ceil(Math.log10(worst));
  const yLat = (ms: number) => TOP.y + TOP.h - (Math.log10(Math.max(ms, 1)) / logMax) * TOP.h;
  const tpMax = niceMax(Math.max(1, ...points.map((p) => p.throughput)));
  const yTp = (v: number) => BOTTOM.y + BOTTOM.h - (v / tpMax) * BOTTOM.h;
  const rssMax = niceMax(Math.max(1, ...rss.map(([, mb]) => mb)));
  const yRss = (mb: number) => BOTTOM.y + BOTTOM.h - (mb / rssMax) * BOTTOM.h;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${LEFT}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  // Steps: shaded in turn, the rate on top, a step that broke a budget in red.
  steps.forEach((s, i) => {
    out.push(
      `<rect x="${x(s.start)}" y="${TOP.y}" width="${x(s.end) - x(s.start)}" height="${BOTTOM.y + BOTTOM.h - TOP.y}" fill="${i % 2 ? '#f4f4f4' : '#fafafa'}"/>`,
      `<line x1="${x(s.start)}" x2="${x(s.start)}" y1="${TOP.y}" y2="${BOTTOM.y + BOTTOM.h}" stroke="#999" stroke-dasharray="2,3"/>`,
      `<text x="${(x(s.start) + x(s.end)) / 2}" y="${TOP.y - 6}" text-anchor="middle" fill="${s.held ? '#333' : '#c00'}">${s.rate}x${s.held ? '' : ' (broke)'}</text>`,
    );
  });
  for (let k = 0; k <= logMax; k += 1) {
    const ms = 10 ** k;
    out.push(
      `<line x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${yLat(ms)}" y2="${yLat(ms)}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${yLat(ms) + 4}" text-anchor="end">${ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`}</text>`,
    );
  }
  for (let k = 0; k <= 5; k += 1) {
    const v = (tpMax * k) / 5;
    out.push(
      `<line x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${yTp(v)}" y2="${yTp(v)}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${yTp(v) + 4}" text-anchor="end">${fmt(v)}</text>`,
      ...(rss.length > 0
        ? [`<text x="${LEFT + PLOT_W + 4}" y="${yTp(v) + 4}" fill="${RSS_COLOR}">${fmt((rssMax * k) / 5)}</text>`]
        : []),
    );
  }
  const tick = niceMax(end / 8) / (niceMax(end / 8) / (end / 8) > 1.5 ? 2 : 1);
  for (let t = 0; t <= end; t += tick)
    out.push(`<text x="${x(t)}" y="${BOTTOM.y + BOTTOM.h + 16}" text-anchor="middle">${fmt(t)}</text>`);
  out.push(
    `<text x="${LEFT}" y="${TOP.y + 14}" font-weight="bold" dx="6">p99 latency (log scale), budgets dashed</text>`,
    `<text x="${LEFT}" y="${BOTTOM.y + 14}" font-weight="bold" dx="6">throughput, requests a second; the servers' memory</text>`,
    `<text x="${LEFT + PLOT_W / 2}" y="${H - 6}" text-anchor="middle">seconds of the run (requests by when they were due)</text>`,
  );
  for (const cls of OP_CLASSES) {
    const budget = BUDGET_MS[cls];
    if (budget !== undefined)
      out.push(
        `<line class="budget-${cls}" x1="${LEFT}" x2="${LEFT + PLOT_W}" y1="${yLat(budget)}" y2="${yLat(budget)}" stroke="${COLORS[cls]}" stroke-dasharray="6,4" opacity="0.7"/>`,
      );
    const line = points
      .filter((p) => p.p99[cls] !== undefined)
      .map((p) => `${x(p.t).toFixed(1)},${yLat(p.p99[cls]!).toFixed(1)}`);
    if (line.length > 0)
      out.push(
        `<polyline class="series-${cls}" points="${line.join(' ')}" fill="none" stroke="${COLORS[cls]}" stroke-width="1.6"/>`,
        // Dots too: a class with few requests has few buckets, and a line alone would hide how few.
        ...line.map((xy) => {
          const [cx, cy] = xy.split(',');
          return `<circle cx="${cx}" cy="${cy}" r="2" fill="${COLORS[cls]}"/>`;
        }),
      );
  }
  if (rss.length > 0) {
    const line = rss.map(([t, mb]) => `${x(t).toFixed(1)},${yRss(mb).toFixed(1)}`).join(' ');
    out.push(`<polyline class="series-rss" points="${line}" fill="none" stroke="${RSS_COLOR}" stroke-width="1.4"/>`);
  }
  const tp = points.map((p) => `${x(p.t).toFixed(1)},${yTp(p.throughput).toFixed(1)}`);
  out.push(
    `<polyline class="series-throughput" points="${tp.join(' ')}" fill="none" stroke="#333" stroke-width="1.6"/>`,
  );
  // Legend at the right.
  OP_CLASSES.forEach((cls, i) => {
    const y = TOP.y + 20 + i * 20;
    const budget = BUDGET_MS[cls];
    out.push(
      `<line x1="${LEFT + PLOT_W + 12}" x2="${LEFT + PLOT_W + 32}" y1="${y}" y2="${y}" stroke="${COLORS[cls]}" stroke-width="2"/>`,
      `<text x="${LEFT + PLOT_W + 38}" y="${y + 4}">${cls}${budget ? ` (&lt; ${budget} ms)` : ''}</text>`,
    );
  });
  out.push(
    `<line x1="${LEFT + PLOT_W + 12}" x2="${LEFT + PLOT_W + 32}" y1="${BOTTOM.y + 20}" y2="${BOTTOM.y + 20}" stroke="#333" stroke-width="2"/>`,
    `<text x="${LEFT + PLOT_W + 38}" y="${BOTTOM.y + 24}">req/s</text>`,
    ...(rss.length > 0
      ? [
          `<line x1="${LEFT + PLOT_W + 12}" x2="${LEFT + PLOT_W + 32}" y1="${BOTTOM.y + 44}" y2="${BOTTOM.y + 44}" stroke="${RSS_COLOR}" stroke-width="2"/>`,
          `<text x="${LEFT + PLOT_W + 38}" y="${BOTTOM.y + 48}">server RSS, MB</text>`,
          `<text x="${LEFT + PLOT_W + 38}" y="${BOTTOM.y + 62}">(axis at right)</text>`,
        ]
      : []),
    `<rect x="${LEFT}" y="${TOP.y}" width="${PLOT_W}" height="${TOP.h}" fill="none" stroke="#666"/>`,
    `<rect x="${LEFT}" y="${BOTTOM.y}" width="${PLOT_W}" height="${BOTTOM.h}" fill="none" stroke="#666"/>`,
    '</svg>',
  );
  return `${out.join('\n')}\n`;
}
