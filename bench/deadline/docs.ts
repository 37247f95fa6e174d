/** `--write-docs`: the deadline's report into docs/PERFORMANCE-LOAD.md between its marks, the chart beside it. */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { writeBetweenMarks } from '../lib.js';
import { root } from '../server-process.js';

export function writeDeadlineDocs(markdown: string, svg: string): string {
  const docs = join(root, 'docs');
  writeFileSync(join(docs, 'deadline-chart.svg'), svg);
  writeBetweenMarks(join(docs, 'PERFORMANCE-LOAD.md'), 'deadline:results', markdown);
  return "The deadline's figures written to docs/PERFORMANCE-LOAD.md, the chart to docs/deadline-chart.svg.";
}
