import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

/** A Fastify app logging at `level` into an array of parsed lines, with a route that logs at each level asked. */
async function appLoggingAt(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const base = pino({ level }, sink);
  // Counts the children pino makes (Fastify's own logger and every request's inherit this from the base).
  const counted = { made: 0 };
  const pinoChild = Object.getPrototypeOf(base).child as typeof base.child;
  base.child = function (this: typeof base, ...args: Parameters<typeof base.child>) {
    counted.made += 1;
    return pinoChild.apply(this, args);
  } as typeof base.child;
  const app = Fastify({ loggerInstance: base, childLoggerFactory: lazyRequestLogger, genReqId: () => 'req-1' });
  app.get('/quiet', async (request) => {
    request.log.info('only an info line');
    return {};
  });
  app.get('/log', async (request) => {
    request.log.info({ step: 'info' }, 'an info line');
    request.log.error({ step: 'error' }, 'an error line');
    request.log.child({ part: 'inner' }).warn('a warning from a child');
    return { enabled: request.log.isLevelEnabled?.('info') };
  });
  await app.ready();
  return { app, lines, counted };
}

describe('the lazy request logger', () => {
  it('at warn makes no child for a request that writes nothing', async () => {
    const { app, lines, counted } = await appLoggingAt('warn');
    const before = counted.made;
    for (let i = 0; i < 5; i += 1) expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(counted.made).toBe(before);
    expect(lines).toEqual([]);
    await app.inject({ method: 'GET', url: '/log' });
    expect(counted.made).toBeGreaterThan(before);
    await app.close();
  });

  it('at warn drops the info lines and writes the others with the request id, as pino would', async () => {
    const { app, lines } = await appLoggingAt('warn');
    const response = await app.inject({ method: 'GET', url: '/log' });
    expect(response.json()).toEqual({ enabled: false });
    expect(lines.map((l) => l.msg)).toEqual(['an error line', 'a warning from a child']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    expect(lines[1].part).toBe('inner');
    await app.close();
  });

  it("at info writes Fastify's request lines and the route's, each with the request id", async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/log' });
    expect(lines.map((l) => l.msg)).toEqual([
      'incoming request',
      'an info line',
      'an error line',
      'a warning from a child',
      'request completed',
    ]);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    await app.close();
  });

  it('with logging off (logger: false), requests are answered and a route may still call its logger', async () => {
    const app = Fastify({ logger: false, childLoggerFactory: lazyRequestLogger });
    app.get('/log', async (request) => {
      request.log.error('dropped');
      return { ok: true };
    });
    expect((await app.inject({ method: 'GET', url: '/log' })).json()).toEqual({ ok: true });
    await app.close();
  });
});
