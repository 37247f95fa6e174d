/**
 * `--write-docs`: each run's summary and chart into docs/PERFORMANCE.md beside the read budgets, between the marks of
 * its configuration (SQLite one process, PostgreSQL with workers, several processes); the whole report of the
 * budget's own configuration, SQLite in one process, into docs/PERFORMANCE-LOAD.md.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { writeBetweenMarks } from '../lib.js';
import { root } from '../server-process.js';
import { configurationOf, report, summary, type RunInfo } from './report.js';
import type { StepResult } from './report.js';

export function writeDeadlineDocs(info: RunInfo, steps: StepResult[], sustained: number | null, svg: string): string {
  const docs = join(root, 'docs');
  const configuration = configurationOf(info);
  const chart = `deadline-chart-${configuration}.svg`;
  writeFileSync(join(docs, chart), svg);
  writeBetweenMarks(join(docs, 'PERFORMANCE.md'), `deadline:${configuration}`, summary(info, steps, sustained, chart));
  if (configuration !== 'sqlite-workers-1')
    return `The deadline's summary written to docs/PERFORMANCE.md, its chart to docs/${chart}.`;
  writeBetweenMarks(join(docs, 'PERFORMANCE-LOAD.md'), 'deadline:results', report(info, steps, sustained, chart));
  return `The deadline's summary written to docs/PERFORMANCE.md, its report to docs/PERFORMANCE-LOAD.md, its chart to docs/${chart}.`;
}
