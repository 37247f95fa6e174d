import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksum } from '../test-support/jsonapi-fixtures.js';

/**
 * What only a real socket shows: Node's parser limits, a body larger than the limit still being sent when the
 * answer is ready. Each answer is a JSON:API error document, never a connection reset or Fastify's own JSON.
 */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describeEachDatabase('transport limits', (target) => {
  let d: DemoApp;
  let port: number;
  let before: Record<string, string>;
  beforeAll(async () => {
    d = await demoApp(target);
    await d.app.listen({ port: 0, host: '127.0.0.1' });
    port = (d.app.server.address() as AddressInfo).port;
    before = await checksum(d.ctx);
  });
  afterAll(async () => {
    await d?.close();
  });

  /** Sends `body` in 64 KiB pieces, as a client on a slow link would, and reads the answer. */
  const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (c: string) => {
            text += c;
          });
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
        },
      );
      request.on('error', reject);
      if (!body) {
        request.end();
        return;
      }
      let at = 0;
      const next = () => {
        while (at < body.length) {
          const piece = body.subarray(at, at + 65536);
          at += piece.length;
          if (!request.write(piece)) {
            request.once('drain', next);
            return;
          }
        }
        request.end();
      };
      next();
    });

  const expectError = (answer: Answer, status: number, words: RegExp) => {
    expect(answer.status, answer.body.slice(0, 300)).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    const document = JSON.parse(answer.body);
    expect(document.errors[0].status).toBe(String(status));
    expect(document.errors[0].detail).toMatch(words);
  };

  const auth = () => ({ authorization: `Bearer ${d.tokens.alice}`, 'content-type': 'application/vnd.api+json' });

  it('answers a 12 MiB body with its 413, not a connection reset', async () => {
    const body = Buffer.alloc(12 * 1024 * 1024, 'x');
    expectError(
      await send('POST', '/jsonapi/node/handler_packet_confirmation', auth(), body),
      413,
      /larger than 1 MiB/,
    );
  });

  it('reads a 12 MiB body to its end after the 413: a client still sending sees no closed connection', async () => {
    // The 413 goes out when the headers arrive; the client is still writing its body, a piece every few ms, as over a
    // slower link. Had the server closed then, its next write would fail ("ended by the other party", or a reset).
    const result = await new Promise<{ text: string; written: boolean; error?: string }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      let written = false;
      let error: string | undefined;
      socket.on('data', (c) => {
        text += c.toString('latin1');
      });
      socket.on('error', (e) => {
        error = e.message;
      });
      socket.on('close', () => resolve({ text, written, error }));
      const size = 12 * 1024 * 1024;
      socket.write(
        `POST /jsonapi/node/handler_packet_confirmation HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${d.tokens.alice}\r\nContent-Type: application/vnd.api+json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      let sent = 0;
      const next = () => {
        if (sent >= size) {
          written = true;
          socket.end();
          return;
        }
        sent += 65536;
        socket.write(Buffer.alloc(65536, 'x'), (e) => {
          if (e) error = e.message;
          else setTimeout(next, 2);
        });
      };
      next();
    });
    expect(result.error).toBeUndefined();
    expect(result.written).toBe(true);
    expect(result.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.text).toContain('application/vnd.api+json');
  });

  it('answers a 12 MiB body sent without a length (chunked) with its 413 too', async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/jsonapi/node/handler_packet_confirmation', headers: auth() },
        (response) => {
          let text = '';
          response.on('data', (c) => {
            text += c;
          });
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
        },
      );
      request.on('error', reject);
      let sent = 0;
      const next = () => {
        while (sent < 12 * 1024 * 1024) {
          sent += 65536;
          if (!request.write(Buffer.alloc(65536, 'x'))) {
            request.once('drain', next);
            return;
          }
        }
        request.end();
      };
      next();
    });
    expectError(answer, 413, /larger than 1 MiB/);
  });

  it('serves a 32 KiB address and answers a longer one with a 414 document', async () => {
    const filter = (bytes: number) =>
      `/jsonapi/node/season?filter[title][value]=x&filter[title][operator]=%3D&page[limit]=1&${'a'.repeat(bytes)}`;
    const ok = await send(
      'GET',
      `/jsonapi/node/season?filter[t][path]=title&filter[t][operator]=IN${'&filter[t][value][]=x'.repeat(450)}&filter[title]=${'y'.repeat(900)}${'&sort=title'.repeat(1)}&fields[node--season]=${'title,'.repeat(2500)}title`,
      auth(),
    );
    expect(ok.status, ok.body.slice(0, 300)).toBe(200);
    expectError(await send('GET', filter(40 * 1024), auth()), 414, /too long/);
  });

  it('serves an IN filter of 210 UUIDs (about 17 KB, brackets percent-encoded as drupal-jsonapi-params writes them)', async () => {
    const rows = await d.ctx.db.selectFrom('seasons').select('id').execute();
    const uuids = [
      ...rows.map((r) => String(r.id)),
      ...Array.from({ length: 210 - rows.length }, () => crypto.randomUUID()),
    ];
    const pairs = [
      ['filter[ids][condition][path]', 'id'],
      ['filter[ids][condition][operator]', 'IN'],
      ...uuids.map((u, i) => [`filter[ids][condition][value][${i}]`, u]),
    ];
    const path = `/jsonapi/node/season?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
    expect(Buffer.byteLength(path)).toBeGreaterThan(16 * 1024);
    const answer = await send('GET', path, auth());
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(answer.headers['content-type']).toBe('application/vnd.api+json');
    expect(
      JSON.parse(answer.body)
        .data.map((s: { id: string }) => s.id)
        .sort(),
    ).toEqual(rows.map((r) => String(r.id)).sort());
  });

  it("answers headers beyond 64 KiB with a JSON:API 431, not Fastify's own JSON", async () => {
    expectError(
      await send('GET', '/jsonapi/node/season', { ...auth(), 'x-padding': 'p'.repeat(70 * 1024) }),
      431,
      /larger than 64 KiB/,
    );
  });

  it('answers HEAD on the API as GET, headers only', async () => {
    for (const path of ['/jsonapi/node/season?sort=title', `/jsonapi/node/handler/${d.handlers['101']}`]) {
      const get = await send('GET', path, auth());
      const head = await send('HEAD', path, auth());
      expect(head.status, path).toBe(200);
      expect(head.body, path).toBe('');
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
    }
    expect((await send('HEAD', '/jsonapi/node/season', {})).status).toBe(401);
  });

  it('changed nothing', async () => {
    expect(await checksum(d.ctx)).toEqual(before);
  });
});
