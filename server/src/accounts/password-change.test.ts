import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, signIn } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { DEMO_PASSWORD, demoApp, type DemoApp } from '../test-support/demo.js';

describeEachDatabase("changing one's own password", (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  });
  afterAll(async () => {
    await demo?.close();
  });

  const change = (token: string, body: Record<string, unknown>) =>
    demo.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: body,
    });

  it('asks for the current password and a strong new one', async () => {
    const wrong = await change(demo.tokens.bob, {
      current_password: 'not-it-at-all',
      new_password: 'a-new-password-2026',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors[0].source.pointer).toBe('/data/attributes/current_password');
    const weak = await change(demo.tokens.bob, { current_password: DEMO_PASSWORD, new_password: 'short' });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors[0].source.pointer).toBe('/data/attributes/new_password');
    expect((await demo.app.inject({ method: 'POST', url: '/api/account/password', payload: {} })).statusCode).toBe(401);
  });

  it('changes it, ends every other session and keeps this one', async () => {
    const other = await signIn(demo.app, 'bob', DEMO_PASSWORD);
    const response = await change(demo.tokens.bob, {
      current_password: DEMO_PASSWORD,
      new_password: 'a-new-password-2026',
    });
    expect(response.statusCode).toBe(204);
    expect((await api(demo.app, other, 'GET', '/jsonapi/node/season')).status).toBe(401);
    expect((await api(demo.app, demo.tokens.bob, 'GET', '/jsonapi/node/season')).status).toBe(200);
    await signIn(demo.app, 'bob', 'a-new-password-2026');
  });
});
