import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { drain, trackRequests } from './drain.js';

/** A bare app with the drain's counting: /slow answers when the test says, /fast at once. */
async function appWithSlowRoute() {
  const app = Fastify();
  trackRequests(app);
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived: () => void = () => {};
  const slowArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  app.get('/slow', async () => {
    arrived();
    await released;
    return { slow: true };
  });
  app.get('/fast', async () => ({ fast: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port, release, slowArrived };
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(port: number, path: string, agent: http.Agent): { answer: Promise<Answer>; request: http.ClientRequest } {
  let request!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    request = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    request.on('error', reject);
  });
  return { answer, request };
}

const opened: FastifyInstance[] = [];
const agents: http.Agent[] = [];
afterEach(async () => {
  agents.splice(0).forEach((a) => a.destroy());
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

function keepAliveAgent(): http.Agent {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}

describe('drain', () => {
  it('waits for a request in flight, answers it with Connection: close, and takes no new connection', async () => {
    const { app, port, release, slowArrived } = await appWithSlowRoute();
    opened.push(app);
    const slow = get(port, '/slow', keepAliveAgent());
    await slowArrived;
    let drained = false;
    const draining = drain(app, { quietMs: 50, maxMs: 5000 }).then(() => {
      drained = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(drained).toBe(false);
    // A new connection is refused: the server no longer listens.
    await expect(get(port, '/fast', new http.Agent()).answer).rejects.toThrow(/ECONNREFUSED/);
    const releasedAt = Date.now();
    release();
    expect(await slow.answer).toEqual({ status: 200, connection: 'close', body: '{"slow":true}' });
    await draining;
    // Done once the answer went and a quiet moment passed, not at the time limit.
    expect(Date.now() - releasedAt).toBeLessThan(2000);
  });

  it('answers a request that arrives on an open connection during the drain, with Connection: close', async () => {
    const { app, port, release, slowArrived } = await appWithSlowRoute();
    opened.push(app);
    const agent = keepAliveAgent();
    const first = await get(port, '/fast', agent).answer;
    expect(first.connection).toBe('keep-alive');
    // Another connection keeps a request in flight, so the drain is still waiting when the next request comes.
    const slow = get(port, '/slow', keepAliveAgent());
    await slowArrived;
    const draining = drain(app, { quietMs: 50, maxMs: 5000 });
    const next = await get(port, '/fast', agent).answer;
    expect(next).toEqual({ status: 200, connection: 'close', body: '{"fast":true}' });
    release();
    await slow.answer;
    await draining;
  });

  it('counts out a request whose client went away, so the drain does not wait for its time limit', async () => {
    const { app, port, release, slowArrived } = await appWithSlowRoute();
    opened.push(app);
    const slow = get(port, '/slow', keepAliveAgent());
    slow.answer.catch(() => {}); // it is cut off on purpose
    await slowArrived;
    slow.request.destroy();
    const started = Date.now();
    await drain(app, { quietMs: 50, maxMs: 5000 });
    expect(Date.now() - started).toBeLessThan(2000);
    release();
  });
});
