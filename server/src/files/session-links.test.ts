import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, signIn } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { DEMO_PASSWORD, demoApp, type DemoApp } from '../test-support/demo.js';

/** Signed file links are bound to the session that got them (files/signing.ts): when it ends, they answer 410. */
describeEachDatabase('file links bound to their session', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const pdfLink = async (token: string): Promise<string> => {
    const form = await demo.ctx.db
      .selectFrom('apc_form_1')
      .select('id')
      .where('handler_id', '=', demo.handlers['101'])
      .where('form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const r = await api(demo.app, token, 'GET', `/jsonapi/node/apc_form_1/${String(form.id)}?include=field_form_1_pdf`);
    expect(r.status).toBe(200);
    const file = r.body.included.find((i: { type: string }) => i.type === 'file--file');
    const url = new URL(file.attributes.uri.url);
    return `${url.pathname}${url.search}`;
  };
  const download = (path: string) => demo.app.inject({ method: 'GET', url: path });
  const endSession = async (token: string) => {
    const sessions = (
      await demo.app.inject({
        method: 'GET',
        url: '/api/account/sessions',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().data as Array<{ id: string; current: boolean }>;
    const mine = sessions.find((s) => s.current)!;
    expect(
      (
        await demo.app.inject({
          method: 'DELETE',
          url: `/api/account/sessions/${mine.id}`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(204);
  };

  it('a link works while its session goes on, and answers 410 once the session is ended', async () => {
    const laptop = await signIn(demo.app, 'alice', DEMO_PASSWORD);
    const phone = await signIn(demo.app, 'alice', DEMO_PASSWORD);
    const laptopLink = await pdfLink(laptop);
    const phoneLink = await pdfLink(phone);
    // Each session gets links of its own (the document cache keeps them apart).
    expect(new URL(laptopLink, 'http://x').searchParams.get('session')).not.toBe(
      new URL(phoneLink, 'http://x').searchParams.get('session'),
    );
    expect((await download(laptopLink)).statusCode).toBe(200);
    await endSession(laptop);
    const gone = await download(laptopLink);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().errors[0].detail).toContain('belonged to a session that has ended');
    expect(gone.rawPayload.subarray(0, 4).toString('latin1')).not.toBe('%PDF');
    // The other session's link still works.
    expect((await download(phoneLink)).statusCode).toBe(200);
  });

  it('a link stops when the user signs out everywhere by changing the password, or is blocked', async () => {
    const token = await signIn(demo.app, 'bob', DEMO_PASSWORD);
    const other = await signIn(demo.app, 'bob', DEMO_PASSWORD);
    const link = await pdfLink(other);
    expect((await download(link)).statusCode).toBe(200);
    const changed = await demo.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { current_password: DEMO_PASSWORD, new_password: 'bob-new-password-2026' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await download(link)).statusCode).toBe(410);
    // Moving the session to another user's link: the signature covers the session, so it is not ours (401).
    const swapped = link.replace(/session=[^&]+/, `session=${encodeURIComponent('another-family')}`);
    expect((await download(swapped)).statusCode).toBe(401);
  });
});
