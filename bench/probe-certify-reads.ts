/**
 * A probe (not a benchmark of record): reads sent while a form 1 is certified. For each of 20 open-month form 1
 * drafts, the certification is sent and a form page of another handler is read 0, 10, 20, 30 and 40 ms later; the
 * reads' and certifications' latencies are printed. `tsx bench/probe-certify-reads.ts DATA PORT` with
 * PORTAL_MECHANISMS_OFF as the server should have it.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadFixture } from './deadline/fixture.js';
import { signIn, sleep, startServer, stopServer, type DataTarget } from './server-process.js';

const [data, portText] = process.argv.slice(2);
const from = resolve(data);
const copy = join(dirname(from), `probe-${process.pid}.sqlite`);
copyFileSync(from, copy);
const target: DataTarget = { dialect: 'sqlite', url: `sqlite:${copy}`, workers: 1 };
const port = Number(portText);
const fx = await loadFixture(target);
const server = await startServer(target, port, {
  env: { PORTAL_MECHANISMS_OFF: process.env.PORTAL_MECHANISMS_OFF ?? '' },
});
try {
  const drafts = fx.drafts.apc_form_1.slice(0, 21);
  const reader = drafts.pop()!;
  const names = [...new Set([...drafts, reader].map((d) => fx.userOf.get(d.handlerId)!))];
  const tokens = await signIn(port, names);
  const send = async (token: string, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/vnd.api+json',
        ...(body ? { 'content-type': 'application/vnd.api+json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
    return performance.now() - started;
  };
  const readerToken = tokens.get(fx.userOf.get(reader.handlerId)!)!;
  const read = () => send(readerToken, 'GET', `/jsonapi/node/apc_form_1/${reader.id}`);
  for (let i = 0; i < 20; i += 1) await read(); // warm-up
  const alone: number[] = [];
  for (let i = 0; i < 40; i += 1) alone.push(await read());
  const during: number[] = [];
  const certify: number[] = [];
  for (const d of drafts) {
    const token = tokens.get(fx.userOf.get(d.handlerId)!)!;
    const body = {
      data: {
        type: 'node--apc_form_1',
        id: d.id,
        attributes: { field_certified: true, field_certification_name: 'Probe', field_certification_title: 'Officer' },
      },
    };
    const cert = send(token, 'PATCH', `/jsonapi/node/apc_form_1/${d.id}`, body);
    const reads = [0, 10, 20, 30, 40].map(async (ms) => {
      await sleep(ms);
      return read();
    });
    certify.push(await cert);
    during.push(...(await Promise.all(reads)));
    await sleep(300);
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(1);
    return `n ${s.length} p50 ${at(0.5)} p90 ${at(0.9)} max ${s[s.length - 1].toFixed(1)}`;
  };
  console.log(`off: ${process.env.PORTAL_MECHANISMS_OFF || '(none)'}`);
  console.log(`read alone:         ${stats(alone)}`);
  console.log(`read during certify: ${stats(during)}`);
  console.log(`certify form 1:      ${stats(certify)}`);
} finally {
  await stopServer(server);
  for (const suffix of ['', '-wal', '-shm']) rmSync(copy + suffix, { force: true });
}
