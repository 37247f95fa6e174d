import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/** Staff keep handler records through the JSON:API; every bad field is a 422 pointing at that attribute. */
const doc = (attributes: Record<string, unknown>, id?: string) => ({
  data: { type: 'node--handler', ...(id ? { id } : {}), attributes },
});
const pointers = (body: { errors: Array<{ source?: { pointer?: string } }> }) =>
  body.errors.map((e) => e.source?.pointer).sort();

describeEachDatabase('council handler records', (target) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(target);
  }, 120_000);
  afterAll(async () => {
    await demo?.close();
  });

  it('refuses a handler without a name or number, or with a taken number, bad e-mail or web address, naming each field', async () => {
    const staff = demo.tokens.staff;
    const empty = await api(
      demo.app,
      staff,
      'POST',
      '/jsonapi/node/handler',
      doc({ title: '  ', field_handler_status: 'active', field_show_in_handler_directory: false }),
    );
    expect(empty.status, JSON.stringify(empty.body)).toBe(422);
    expect(pointers(empty.body)).toEqual(['/data/attributes/field_handler_number', '/data/attributes/title']);

    const bad = await api(
      demo.app,
      staff,
      'POST',
      '/jsonapi/node/handler',
      doc({
        title: 'Copy Cat Pecans',
        field_handler_number: '101',
        field_handler_status: 'closed',
        field_show_in_handler_directory: true,
        field_email: 'not-an-address',
        field_website: 'javascript:alert(1)',
      }),
    );
    expect(bad.status).toBe(422);
    expect(pointers(bad.body)).toEqual([
      '/data/attributes/field_email',
      '/data/attributes/field_handler_number',
      '/data/attributes/field_handler_status',
      '/data/attributes/field_website',
    ]);
    expect(
      bad.body.errors.find((e: { source: { pointer: string } }) => e.source.pointer.endsWith('number')).detail,
    ).toContain('101');
    expect(
      await demo.ctx.db.selectFrom('handlers').select('id').where('title', '=', 'Copy Cat Pecans').executeTakeFirst(),
    ).toBeUndefined();

    const spaces = await api(
      demo.app,
      staff,
      'POST',
      '/jsonapi/node/handler',
      doc({
        title: 'Bad number',
        field_handler_number: '1 0 4',
        field_handler_status: 'active',
        field_show_in_handler_directory: false,
      }),
    );
    expect(pointers(spaces.body)).toEqual(['/data/attributes/field_handler_number']);
  });

  it('creates a handler with trimmed values and blank contacts as null, then edits and deactivates it', async () => {
    const staff = demo.tokens.staff;
    const made = await api(
      demo.app,
      staff,
      'POST',
      '/jsonapi/node/handler',
      doc({
        title: '  Hilltop Pecans  ',
        field_handler_number: ' 140 ',
        field_handler_status: 'active',
        field_show_in_handler_directory: true,
        field_email: ' office@hilltop.example ',
        field_phone: '',
        field_address: '1 Orchard Road\nAlbany, GA',
        field_website: 'https://hilltop.example',
      }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data.id as string;
    expect(made.body.data.attributes).toMatchObject({
      title: 'Hilltop Pecans',
      field_handler_number: '140',
      field_email: 'office@hilltop.example',
      field_phone: null,
    });

    const taken = await api(
      demo.app,
      staff,
      'PATCH',
      `/jsonapi/node/handler/${id}`,
      doc({ field_handler_number: '102' }, id),
    );
    expect(taken.status).toBe(422);
    expect(pointers(taken.body)).toEqual(['/data/attributes/field_handler_number']);
    // Its own number again is no conflict; a blank name is.
    const same = await api(
      demo.app,
      staff,
      'PATCH',
      `/jsonapi/node/handler/${id}`,
      doc({ field_handler_number: '140', field_phone: '229-555-0140' }, id),
    );
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const noName = await api(demo.app, staff, 'PATCH', `/jsonapi/node/handler/${id}`, doc({ title: '' }, id));
    expect(pointers(noName.body)).toEqual(['/data/attributes/title']);

    const off = await api(
      demo.app,
      staff,
      'PATCH',
      `/jsonapi/node/handler/${id}`,
      doc({ field_handler_status: 'inactive' }, id),
    );
    expect(off.status).toBe(200);
    expect(off.body.data.attributes.field_handler_status).toBe('inactive');
    const row = await demo.ctx.db
      .selectFrom('handlers')
      .select(['handler_status', 'phone'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ handler_status: 'inactive', phone: '229-555-0140' });
    const audit = await demo.ctx.db.selectFrom('audit_log').select('action').where('entity_id', '=', id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['create', 'update', 'update']);
  });

  it('lets no handler user create or change a handler record', async () => {
    const mine = demo.handlers['101'];
    expect(
      (
        await api(
          demo.app,
          demo.tokens.alice,
          'PATCH',
          `/jsonapi/node/handler/${mine}`,
          doc({ title: 'Mine now' }, mine),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await api(
          demo.app,
          demo.tokens.alice,
          'POST',
          '/jsonapi/node/handler',
          doc({ title: 'Mine', field_handler_number: '150' }),
        )
      ).status,
    ).toBe(403);
  });
});
