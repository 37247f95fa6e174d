import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations, migrateToLatest } from '../db/database.js';
import { firstLink, startTestSmtpServer, type TestSmtpServer } from '../mail/test-smtp.js';
import { MAIL_NOT_PATCHABLE } from '../resources/write-policy.js';
import { api, councilCall, signIn } from '../test-support/api.js';
import { createTestContext, describeEachDatabase } from '../test-support/databases.js';
import { DEMO_PASSWORD, demoApp, type DemoApp } from '../test-support/demo.js';
import { createUser } from '../workflows/accounts.js';

const OPERATOR = { userId: 'cli', name: 'operator', role: 'staff' as const, handlerId: null };

describeEachDatabase('identities that cannot be confused', (target) => {
  let demo: DemoApp;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    demo = await demoApp(target, { config: { publicUrl: 'http://portal.test', smtpUrl: smtp.url } });
  });
  afterAll(async () => {
    await demo?.close();
    await smtp?.close();
  });

  const userOf = (name: string) =>
    demo.ctx.db
      .selectFrom('users')
      .select(['id', 'mail', 'mail_verified_at'])
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
  const post = (url: string, token: string | null, body: unknown) => councilCall(demo.app, token, 'POST', url, body);

  it("regression: alice cannot PATCH her mail to a case variant of carol's (or to anything): 422 naming the flow", async () => {
    const alice = await userOf('alice');
    for (const mail of ['CAROL@example.com', 'alice.new@example.com']) {
      const r = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/user/user/${alice.id}`, {
        data: { type: 'user--user', id: alice.id, attributes: { mail } },
      });
      expect(r.status, r.text).toBe(422);
      expect(r.body.errors[0]).toMatchObject({
        detail: MAIL_NOT_PATCHABLE,
        source: { pointer: '/data/attributes/mail' },
      });
    }
    // Staff neither: they change addresses in the council console.
    const staffTry = await api(demo.app, demo.tokens.staff, 'PATCH', `/jsonapi/user/user/${alice.id}`, {
      data: { type: 'user--user', id: alice.id, attributes: { mail: 'x@example.com' } },
    });
    expect(staffTry.status).toBe(422);
    expect((await userOf('alice')).mail).toBe('alice@example.com');
    // The rest of the profile still changes by PATCH.
    const ok = await api(demo.app, demo.tokens.alice, 'PATCH', `/jsonapi/user/user/${alice.id}`, {
      data: { type: 'user--user', id: alice.id, attributes: { field_job_title: 'Buyer' } },
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('the database refuses a username or address that differs only by case, whatever writes it', async () => {
    const now = '2026-11-22T12:00:00+00:00';
    const row = {
      title: '',
      created: now,
      changed: now,
      role: 'handler',
      status: 'active',
      first_name: 'X',
      last_name: '',
      show_in_directory: target.dialect === 'sqlite' ? 0 : false,
    };
    await expect(
      demo.ctx.db
        .insertInto('users')
        .values({ ...row, id: 'u-1', name: 'ALICE', mail: 'fresh1@example.com' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      demo.ctx.db
        .insertInto('users')
        .values({ ...row, id: 'u-2', name: 'fresh2', mail: 'Carol@Example.COM' })
        .execute(),
    ).rejects.toThrow();
    const alice = await userOf('alice');
    await expect(
      demo.ctx.db.updateTable('users').set({ mail: 'CAROL@example.com' }).where('id', '=', alice.id).execute(),
    ).rejects.toThrow();
  });

  it("one way to make a user: the CLI's, the council console's and the sign-up's rules are the same", async () => {
    const a = { ctx: demo.ctx, viewer: OPERATOR };
    const base = { password: 'a-long-password-1', firstName: 'Zed', role: 'handler' as const, handlerNumber: '101' };
    const refused = async (input: Parameters<typeof createUser>[1]) => {
      const error = await createUser(a, input).then(
        () => null,
        (e: { status: number; errors: Array<{ source?: { pointer?: string } }> }) => e,
      );
      expect(error?.status).toBe(422);
      return error!.errors.map((e) => e.source?.pointer).sort();
    };
    expect(await refused({ ...base, username: 'Alice', mail: 'zed@example.com' })).toEqual([
      '/data/attributes/username',
    ]);
    expect(await refused({ ...base, username: 'zed', mail: 'BOB@EXAMPLE.COM' })).toEqual(['/data/attributes/email']);
    expect(await refused({ ...base, username: 'z d', mail: 'nope', password: 'short' })).toEqual([
      '/data/attributes/email',
      '/data/attributes/password',
      '/data/attributes/username',
    ]);
    // A non-staff caller may only make a pending handler sign-up.
    await expect(
      createUser(
        { ctx: demo.ctx, viewer: { ...OPERATOR, role: 'handler' } },
        { ...base, username: 'zed', mail: 'zed@example.com' },
      ),
    ).rejects.toMatchObject({ status: 403 });
    const staffMade = await councilCall(demo.app, demo.tokens.staff, 'POST', '/api/council/users', {
      username: 'CAROL',
      first_name: 'C',
      email: 'c2@example.com',
      role: 'staff',
    });
    expect(staffMade.status).toBe(422);
    expect(staffMade.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual(['/username']);
    const id = await createUser(a, { ...base, username: 'zed', mail: ' Zed@Example.com ' });
    const zed = await demo.ctx.db
      .selectFrom('users')
      .select(['mail', 'mail_verified_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(zed.mail).toBe('Zed@Example.com');
    expect(zed.mail_verified_at).toBe('2026-11-22T12:00:00+00:00');
  });

  it("changing one's e-mail: current password, a link to the new address, the old one told; nothing changes before", async () => {
    const bob = await userOf('bob');
    const change = (body: unknown, token = demo.tokens.bob) => post('/api/account/email', token, body);
    expect(
      (await change({ current_password: DEMO_PASSWORD, new_email: 'x@example.com' }, null as unknown as string)).status,
    ).toBe(401);
    const wrong = await change({ current_password: 'not-it', new_email: 'bob.new@example.com' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].source.pointer).toBe('/data/attributes/current_password');
    for (const email of ['CAROL@EXAMPLE.COM', 'not-an-address', '', 'Bob@Example.com']) {
      const r = await change({ current_password: DEMO_PASSWORD, new_email: email });
      expect(r.status, email).toBe(422);
      expect(r.body.errors[0].source.pointer, email).toBe('/data/attributes/new_email');
    }
    const asked = await change({ current_password: DEMO_PASSWORD, new_email: 'Bob.New@example.com' });
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body).toEqual({ status: 'confirmation_sent', email: 'Bob.New@example.com' });
    const confirmMail = await smtp.waitFor((m) => m.to.includes('Bob.New@example.com'));
    const notice = await smtp.waitFor((m) => m.to.includes('bob@example.com') && m.subject.includes('being changed'));
    expect(notice.text).toContain('Bob.New@example.com');
    expect(await userOf('bob')).toMatchObject({ mail: 'bob@example.com' });
    const link = new URL(firstLink(confirmMail));
    expect(`${link.origin}${link.pathname}`).toBe('http://portal.test/confirm-email');
    const token = link.searchParams.get('token');
    expect((await post('/api/account/email/confirm', null, { token: 'forged' })).status).toBe(400);
    const confirmed = await post('/api/account/email/confirm', null, { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ email: 'Bob.New@example.com' });
    expect(await userOf('bob')).toMatchObject({
      id: bob.id,
      mail: 'Bob.New@example.com',
      mail_verified_at: '2026-11-22T12:00:00+00:00',
    });
    const again = await post('/api/account/email/confirm', null, { token });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].detail).toContain('invalid, already used or expired');
  });

  it('a confirmation loses when another account took the address meanwhile', async () => {
    const asked = await post('/api/account/email', demo.tokens.dave, {
      current_password: DEMO_PASSWORD,
      new_email: 'shared@example.com',
    });
    expect(asked.status).toBe(202);
    const token = new URL(firstLink(await smtp.waitFor((m) => m.to.includes('shared@example.com')))).searchParams.get(
      'token',
    );
    const carol = await userOf('carol');
    await councilCall(demo.app, demo.tokens.staff, 'PATCH', `/api/council/users/${carol.id}`, {
      email: 'SHARED@example.com',
    });
    const r = await post('/api/account/email/confirm', null, { token });
    expect(r.status).toBe(409);
    expect((await userOf('dave')).mail).toBe('dave@example.com');
    await councilCall(demo.app, demo.tokens.staff, 'PATCH', `/api/council/users/${carol.id}`, {
      email: 'carol@example.com',
    });
  });

  it('password reset finds exactly one active user by a verified address: a case variant reaches carol, not an attacker', async () => {
    const reset = (email: string) => post('/api/password-reset', null, { email });
    expect((await reset('CAROL@Example.com')).status).toBe(202);
    const mail = await smtp.waitFor((m) => m.to.includes('carol@example.com') && m.subject.startsWith('Reset'));
    const token = new URL(firstLink(mail)).searchParams.get('token');
    expect((await post('/api/password-reset/confirm', null, { token, password: 'carol-new-password-1' })).status).toBe(
      204,
    );
    await signIn(demo.app, 'carol', 'carol-new-password-1');
    // An unverified address gets no link.
    const alice = await userOf('alice');
    await demo.ctx.db.updateTable('users').set({ mail_verified_at: null }).where('id', '=', alice.id).execute();
    const count = smtp.messages.length;
    expect((await reset('alice@example.com')).status).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.slice(count).filter((m) => m.to.includes('alice@example.com'))).toEqual([]);
    await demo.ctx.db
      .updateTable('users')
      .set({ mail_verified_at: '2026-11-22T12:00:00+00:00' })
      .where('id', '=', alice.id)
      .execute();
  });
});

describeEachDatabase('migration 008 (identity)', (target) => {
  it('stops with a report of the accounts that differ only by case, and changes nothing', async () => {
    const ctx = await createTestContext(target);
    try {
      // Back to the schema before 008, then the data that would have been allowed then.
      const schema =
        target.dialect === 'postgres'
          ? (await sql<{ s: string }>`select current_schema() as s`.execute(ctx.db)).rows[0].s
          : undefined;
      const migrator = new Migrator({
        db: ctx.db,
        provider: { getMigrations: async () => migrations },
        migrationTableSchema: schema,
      });
      const down = await migrator.migrateTo('007-data-version');
      expect(down.error).toBeUndefined();
      const now = '2026-01-01T00:00:00+00:00';
      const row = {
        title: '',
        created: now,
        changed: now,
        role: 'staff',
        status: 'active',
        first_name: 'X',
        last_name: '',
        show_in_directory: target.dialect === 'sqlite' ? 0 : false,
      };
      await ctx.db
        .insertInto('users')
        .values([
          { ...row, id: 'a1', name: 'Alice', mail: 'alice@example.com' },
          { ...row, id: 'a2', name: 'alice', mail: 'other@example.com' },
          { ...row, id: 'c1', name: 'carol', mail: 'carol@example.com' },
          { ...row, id: 'c2', name: 'mallory', mail: 'CAROL@example.com' },
        ])
        .execute();
      const error = await migrateToLatest(ctx.db, schema).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toContain('Migration 008-identity stopped');
      expect(error?.message).toContain(
        'username "alice": Alice (id a1, username "Alice"); alice (id a2, username "alice")',
      );
      expect(error?.message).toContain(
        'e-mail address "carol@example.com": carol (id c1, e-mail address "carol@example.com"); mallory (id c2, e-mail address "CAROL@example.com")',
      );
      const ran = await sql<{
        name: string;
      }>`select name from ${sql.table(schema ? `${schema}.kysely_migration` : 'kysely_migration')}`.execute(ctx.db);
      expect(ran.rows.map((r) => r.name)).not.toContain('008-identity');
      // Once an operator settles them, it runs.
      await ctx.db.updateTable('users').set({ name: 'alice2' }).where('id', '=', 'a2').execute();
      await ctx.db.updateTable('users').set({ mail: 'mallory@example.com' }).where('id', '=', 'c2').execute();
      expect(await migrateToLatest(ctx.db, schema)).toContain('008-identity');
    } finally {
      await ctx.close();
    }
  });
});
