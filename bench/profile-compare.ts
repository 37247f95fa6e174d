/**
 * `npx tsx bench/profile-compare.ts DIR [--top 30]`: where each request's CPU time goes, the engine beside its floor.
 *
 * Reads the profiles `npm run bench -- --cpu-prof DIR` wrote (DIR/server/*.cpuprofile, one per server process, and
 * DIR/floor/*.cpuprofile) and the requests the load sent to each (DIR/requests.json), and prints the self time per
 * request of each part: Node's modules, each npm package, the portal's own files, native calls (the socket's writev,
 * SQLite's statements) and the garbage collector. A rate says how far the engine is from its floor; this says where
 * the difference is. Profile one request (`--only`) at one size: the counts are the whole run's.
 *
 * Only the main thread is sampled: work on libuv's threads (password hashing, file reads) is not in it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from './lib.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the program a function belongs to, by where its code comes from. */
function partOf(frame: ProfileNode['callFrame']): string | null {
  const { functionName, url } = frame;
  if (functionName === '(idle)') return null;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 (program)';
  if (url === '') return `native ${functionName || '(anonymous)'}`;
  if (url.startsWith('node:')) return url;
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(server\/(?:dist|src)|bench)\/(.+)$/.exec(url);
  return own ? `${own[1].startsWith('server') ? 'portal' : 'bench'} ${own[2]}` : url;
}

/** Microseconds of self time per part, summed over every profile in a folder. */
function selfTimes(dir: string): Map<string, number> {
  const times = new Map<string, number>();
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0)
    throw new Error(`No .cpuprofile in ${dir}: run \`npm run bench -- --cpu-prof DIR ...\` first.`);
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const parts = new Map(profile.nodes.map((n) => [n.id, partOf(n.callFrame)]));
    // A sample's time is the time until the next one, as DevTools counts it.
    profile.samples.forEach((id, i) => {
      const part = parts.get(id);
      const micros = profile.timeDeltas[i + 1] ?? 0;
      if (part) times.set(part, (times.get(part) ?? 0) + micros);
    });
  }
  return times;
}

function main(): void {
  const [dir, ...options] = process.argv.slice(2);
  if (!dir || dir.startsWith('--')) throw new Error('Usage: npx tsx bench/profile-compare.ts DIR [--top 30]');
  const top = Number(parseArgs(options).top ?? 30);
  const counts = JSON.parse(readFileSync(join(dir, 'requests.json'), 'utf8')) as { server: number; floor: number };
  const engine = selfTimes(join(dir, 'server'));
  const floor = selfTimes(join(dir, 'floor'));
  const perRequest = (times: Map<string, number>, part: string, n: number) => (n > 0 ? (times.get(part) ?? 0) / n : 0);
  const rows = [...new Set([...engine.keys(), ...floor.keys()])]
    .map((part) => ({
      part,
      engine: perRequest(engine, part, counts.server),
      floor: perRequest(floor, part, counts.floor),
    }))
    .sort((a, b) => Math.max(b.engine, b.floor) - Math.max(a.engine, a.floor));
  const total = (times: Map<string, number>, n: number) =>
    [...times.values()].reduce((s, t) => s + t, 0) / Math.max(n, 1);
  const us = (x: number) => x.toFixed(1).padStart(8);
  console.log(
    `Requests: engine ${counts.server}, floor ${counts.floor}. Self time per request, microseconds (main thread, idle left out).`,
  );
  console.log(`${'part'.padEnd(56)}  engine     floor`);
  for (const r of rows.slice(0, top)) console.log(`${r.part.slice(0, 56).padEnd(56)}${us(r.engine)}  ${us(r.floor)}`);
  const rest = rows.slice(top);
  if (rest.length > 0)
    console.log(
      `${`the other ${rest.length} parts`.padEnd(56)}${us(rest.reduce((s, r) => s + r.engine, 0))}  ${us(rest.reduce((s, r) => s + r.floor, 0))}`,
    );
  console.log(`${'all'.padEnd(56)}${us(total(engine, counts.server))}  ${us(total(floor, counts.floor))}`);
}

main();
