import { readFileSync, writeFileSync } from 'node:fs';
/** Pure helpers of the benchmark: arguments, the progress line, the generated handlers, statistics, budgets. */
import { DEMO_VARIETIES, seededRandom } from '../server/src/demo/data.js';

export { seededRandom };

/** Every generated user signs in with this password. */
export const BENCH_PASSWORD = 'bench-pecans-2026';

/** `--handlers 10 --seasons 2 --force` -> { handlers: '10', seasons: '2', force: true }. */
export function parseArgs(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument "${a}"`);
    const [name, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) out[name] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[name] = argv[++i];
    else out[name] = true;
  }
  return out;
}

/** A one-line progress bar on stderr (redrawn at most every 200 ms), with the rate and the time left. */
export class Progress {
  private done_ = 0;
  private last = 0;
  private readonly started = Date.now();
  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  tick(n: number, label: string): void {
    this.done_ += n;
    const now = Date.now();
    if (now - this.last < 200 && this.done_ < this.total) return;
    this.last = now;
    this.stream.write(`\r${progressLine(this.done_, this.total, now - this.started, label)}\x1b[K`);
  }

  done(): void {
    this.stream.write(`\r${progressLine(this.total, this.total, Date.now() - this.started, 'done')}\x1b[K\n`);
  }
}

export function progressLine(done: number, total: number, elapsedMs: number, label: string, width = 30): string {
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * width);
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const left = rate > 0 ? (total - done) / rate : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${done}/${total} ${formatSeconds(elapsedMs / 1000)} elapsed, ~${formatSeconds(left)} left  ${label}`;
}

/** 42s, 4m05s, 1h07m: rounded first, so that 299.6 s is 5m00s and not 4m60s. */
export function formatSeconds(s: number): string {
  const seconds = Math.round(s);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

export interface BenchUser {
  username: string;
  firstName: string;
  lastName: string;
  directory: boolean;
  jobTitle: string;
}
export interface BenchHandler {
  number: string;
  name: string;
  directory: boolean;
  address: string;
  phone: string;
  email: string;
  website: string;
  size: number;
  substandard: boolean;
  varieties: string[];
  users: BenchUser[];
}

const FIRST = [
  'Ana',
  'Ben',
  'Cruz',
  'Dana',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'June',
  'Kai',
  'Lena',
  'Milo',
  'Nia',
  'Otto',
  'Pia',
];
const LAST = [
  'Alvarez',
  'Brooks',
  'Chen',
  'Diaz',
  'Ellis',
  'Fox',
  'Garcia',
  'Hughes',
  'Ito',
  'Jones',
  'Khan',
  'Lopez',
  'Moore',
  'Nunez',
];
const PLACES = [
  'Albany, GA 31705',
  'Las Cruces, NM 88005',
  'Mobile, AL 36602',
  'San Saba, TX 76877',
  'Tucson, AZ 85701',
  'Fresno, CA 93721',
];

/**
 * N handlers, deterministic: sizes from 0.3 to 2.0, most in the handler directory, two or three varieties each,
 * one user each (in the staff directory) and a second one (not in it) for every fourth handler. Usernames are
 * `bench-<number>` and `bench-<number>-b`, so the benchmark knows whom to sign in.
 */
export function benchHandlers(n: number): BenchHandler[] {
  const list: BenchHandler[] = [];
  for (let i = 0; i < n; i += 1) {
    const number = String(1001 + i);
    const rand = seededRandom(`bench-handler-${number}`);
    const pick = () => DEMO_VARIETIES[Math.floor(rand() * DEMO_VARIETIES.length)];
    const varieties = [...new Set([pick(), pick(), pick()])];
    const first = FIRST[i % FIRST.length];
    const last = LAST[(i * 7) % LAST.length];
    const users: BenchUser[] = [
      { username: `bench-${number}`, firstName: first, lastName: last, directory: true, jobTitle: 'Office Manager' },
    ];
    if (i % 4 === 0)
      users.push({
        username: `bench-${number}-b`,
        firstName: FIRST[(i + 5) % FIRST.length],
        lastName: LAST[(i + 3) % LAST.length],
        directory: false,
        jobTitle: 'Bookkeeper',
      });
    list.push({
      number,
      name: `${LAST[i % LAST.length]} ${['Pecan Co.', 'Pecans', 'Shellers', 'Nut Farms'][i % 4]} ${number}`,
      directory: rand() < 0.85,
      address: `${100 + i} Orchard Road\n${PLACES[i % PLACES.length]}`,
      phone: `+1 555 555 ${String(i % 10000).padStart(4, '0')}`,
      email: `office@h${number}.example`,
      website: `https://h${number}.example`,
      size: 0.3 + rand() * 1.7,
      substandard: rand() < 0.6,
      varieties,
      users,
    });
  }
  return list;
}

/** One budget line: what is measured against what limit. */
export interface Budget {
  name: string;
  value: number | null;
  limit: number;
  unit: string;
  atMost: boolean;
  met: boolean | null;
  note?: string;
}

export function budget(
  name: string,
  value: number | null,
  limit: number,
  unit: string,
  atMost: boolean,
  note?: string,
): Budget {
  const met = value === null || Number.isNaN(value) ? null : atMost ? value <= limit : value >= limit;
  return { name, value, limit, unit, atMost, met, note };
}

export function budgetLine(b: Budget): string {
  const shown = b.value === null ? 'n/a' : `${Number.isInteger(b.value) ? b.value : b.value.toFixed(2)} ${b.unit}`;
  const verdict = b.met === null ? 'NOT MEASURED' : b.met ? 'met' : 'NOT MET';
  return `${verdict.padEnd(12)} ${b.name}: ${shown} (${b.atMost ? 'at most' : 'at least'} ${b.limit} ${b.unit})${b.note ? ` ${b.note}` : ''}`;
}

/** `text` with what lies between `<!-- name -->` and `<!-- /name -->` replaced by `inside`; null without the marks. */
export function betweenMarks(text: string, name: string, inside: string): string | null {
  const start = `<!-- ${name} -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(`<!-- /${name} -->`);
  if (a === -1 || b < a) return null;
  return `${text.slice(0, a + start.length)}\n${inside}\n${text.slice(b)}`;
}

/** Writes `inside` between a doc's marks (`--write-docs`); an error names the doc and the marks it lacks. */
export function writeBetweenMarks(path: string, name: string, inside: string): void {
  const text = betweenMarks(readFileSync(path, 'utf8'), name, inside);
  if (text === null) throw new Error(`${path} has no <!-- ${name} --> ... <!-- /${name} --> marks`);
  writeFileSync(path, text);
}
