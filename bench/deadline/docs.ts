/**
 * `--write-docs`: the deadline's report into docs/PERFORMANCE.md between its marks, and the chart beside it as
 * docs/deadline-chart.svg. PERFORMANCE.md stays under ~300 lines: when the report would take it past that, it goes
 * to docs/PERFORMANCE-DEADLINE.md instead, and PERFORMANCE.md's marks hold a link to it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../server-process.js';

const START = '<!-- deadline:results -->';
const END = '<!-- /deadline:results -->';
const MAX_LINES = 300;

/** `text` with what lies between the marks replaced by `inside`; null when the marks are missing. */
export function betweenMarks(text: string, inside: string): string | null {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a === -1 || b < a) return null;
  return `${text.slice(0, a + START.length)}\n${inside}\n${text.slice(b)}`;
}

export function writeDeadlineDocs(markdown: string, svg: string): string {
  const docs = join(root, 'docs');
  writeFileSync(join(docs, 'deadline-chart.svg'), svg);
  const performance = join(docs, 'PERFORMANCE.md');
  const text = readFileSync(performance, 'utf8');
  const inline = betweenMarks(text, markdown);
  if (inline === null) return `${performance} has no ${START} ... ${END} marks: nothing written.`;
  if (inline.split('\n').length <= MAX_LINES) {
    writeFileSync(performance, inline);
    return `The deadline's figures written to ${performance}, the chart to docs/deadline-chart.svg.`;
  }
  const own = join(docs, 'PERFORMANCE-DEADLINE.md');
  const head =
    '# The deadline benchmark\n\nThe latest run of `npm run bench:deadline` ([PERFORMANCE.md](PERFORMANCE.md)).\n\n';
  writeFileSync(own, `${head}${START}\n${markdown}\n${END}\n`);
  writeFileSync(
    performance,
    betweenMarks(text, 'The latest figures and the chart: [PERFORMANCE-DEADLINE.md](PERFORMANCE-DEADLINE.md).')!,
  );
  return `The deadline's figures written to ${own} (PERFORMANCE.md would pass ${MAX_LINES} lines), the chart beside it.`;
}
