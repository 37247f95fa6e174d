import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * API answers are compressed as browsers ask, in one call (plugins/compression.ts): a large document comes back
 * brotli-encoded with its length known (not a chunked stream), and decodes to exactly what an uncompressed answer
 * holds. Compression does not depend on the database, so SQLite only.
 */
describe('compressed API answers', () => {
  let d: DemoApp;
  // Every package of the season with forms, PDFs and periods: a few hundred KB, far above the plugin's 8 KB default.
  const url =
    '/jsonapi/node/reporting_forms_package?page[limit]=500&include=field_reporting_period,field_form_1,field_form_2,field_form_3,field_form_1.field_form_1_pdf';
  const get = (acceptEncoding: string) =>
    d.app.inject({
      url,
      headers: {
        authorization: `Bearer ${d.tokens.staff}`,
        accept: 'application/vnd.api+json',
        'accept-encoding': acceptEncoding,
      },
    });

  beforeAll(async () => {
    d = await demoApp({ dialect: 'sqlite', url: 'sqlite::memory:' });
  });
  afterAll(async () => {
    await d?.close();
  });

  it('sends a large document to a browser brotli-encoded in one piece, the same document once decoded', async () => {
    const plain = await get('identity');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(64 * 1024);

    const br = await get('gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    // Compressed at once: the length is known, no chunked stream.
    expect(br.headers['transfer-encoding']).toBeUndefined();
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('sends gzip to a client that has no brotli', async () => {
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')).data.length).toBeGreaterThan(30);
  });

  it('decodes a write sent gzip-encoded (reads take no body, so only writes decode)', async () => {
    const body = gzipSync(
      new URLSearchParams({
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'alice',
        password: 'demo-pecans-2026',
      }).toString(),
    );
    const res = await d.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().access_token).toEqual(expect.any(String));
    // Without the encoding said, the same bytes are not a form.
    const unsaid = await d.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unsaid.statusCode).toBe(400);
  });
});
