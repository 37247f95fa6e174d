import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, describeEachDatabase, fixedClock, type TestContext } from '../test-support/databases.js';
import { loadDemoDataIfEmpty } from './load.js';

describeEachDatabase('demo data set', (target) => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext(target, { clock: fixedClock('2026-11-22T12:00:00Z') }); });
  afterAll(async () => { await ctx?.close(); });

  it('loads through the workflows', async () => {
    const t = Date.now();
    const creds = await loadDemoDataIfEmpty(ctx);
    console.log('demo load ms', target.dialect, Date.now() - t);
    expect(creds?.users.map((u) => u.username)).toContain('alice');
    const forms = await ctx.db.selectFrom('apc_form_1').select(['form_status']).execute();
    console.log(forms.length, forms.filter((f) => f.form_status === 'certified').length);
    expect(await loadDemoDataIfEmpty(ctx)).toBeNull();
  });
});
