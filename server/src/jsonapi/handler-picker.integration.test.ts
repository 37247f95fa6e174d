import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';

/**
 * The receiving-handler picker (web/src/lib/portal/directory-params.ts, handlerPickerParams): every active handler
 * is found by name or number, in the directory or not, so a transfer can name it; of a handler outside the
 * directory a handler user reads the name and number only (access.ts, handlerAccess: no contacts, nothing of its
 * own), and an inactive handler outside the directory not at all.
 */
function pickerQuery(search = ''): string {
  const p = new URLSearchParams();
  p.set('filter[field_handler_status]', 'active');
  if (search) {
    p.set('filter[search][group][conjunction]', 'OR');
    for (const f of ['title', 'field_handler_number']) {
      p.set(`filter[${f}][condition][path]`, f);
      p.set(`filter[${f}][condition][value]`, search);
      p.set(`filter[${f}][condition][operator]`, 'CONTAINS');
      p.set(`filter[${f}][condition][memberOf]`, 'search');
    }
  }
  p.set('sort', 'title');
  return `/jsonapi/node/handler?${p.toString()}`;
}

type Handler = {
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
};
const CONTACTS = ['field_address', 'field_phone', 'field_email', 'field_website'];

describeEachDatabase('handler picker: every active handler by name and number', (target) => {
  let d: DemoApp;
  const inactiveId = randomUUID();
  const get = async (url: string, who: keyof DemoApp['tokens'] = 'alice') => {
    const r = await api(d.app, d.tokens[who], 'GET', url);
    return r as { status: number; body: { data: Handler[] | Handler } };
  };
  const list = async (url: string, who: keyof DemoApp['tokens'] = 'alice') => {
    const r = await get(url, who);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data as Handler[];
  };

  beforeAll(async () => {
    d = await demoApp(target);
    const flag = (v: boolean) => (target.dialect === 'sqlite' ? Number(v) : v);
    // Gulf Coast Shellers (103) is outside the directory: it gets contacts that no other handler may see.
    await d.ctx.db
      .updateTable('handlers')
      .set({
        address: '9 Secret Wharf, Biloxi',
        phone: '228 555 0199',
        email: 'office@gulf.example',
        website: 'gulf.example',
      } as never)
      .where('id', '=', d.handlers['103'])
      .execute();
    const now = '2026-11-22T12:00:00+00:00';
    await d.ctx.db
      .insertInto('handlers')
      .values({
        id: inactiveId,
        title: 'Gone Pecans',
        created: now,
        changed: now,
        handler_number: '190',
        handler_status: 'inactive',
        show_in_handler_directory: flag(false),
        address: null,
        phone: null,
        email: null,
        website: null,
      } as never)
      .execute();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('lists every active handler, in the directory or not, and never an inactive one', async () => {
    const rows = await list(pickerQuery());
    expect(rows.map((h) => h.attributes.field_handler_number)).toEqual(['103', '102', '101']);
    expect((await list(pickerQuery('gulf'))).map((h) => h.attributes.title)).toEqual(['Gulf Coast Shellers']);
    expect(await list(pickerQuery('103'))).toHaveLength(1);
    expect(await list(pickerQuery('gone'))).toEqual([]);
    // Without the status filter too: an inactive handler outside the directory is not readable at all.
    expect((await list('/jsonapi/node/handler?filter[title]=Gone%20Pecans')).length).toBe(0);
    expect([403, 404]).toContain((await get(`/jsonapi/node/handler/${inactiveId}`)).status);
    // Staff read it, as before.
    expect(await list('/jsonapi/node/handler?filter[title]=Gone%20Pecans', 'staff')).toHaveLength(1);
  });

  it('of a handler outside the directory, another handler reads name and number only', async () => {
    const [gulf] = await list(pickerQuery('gulf'));
    for (const field of CONTACTS) expect(gulf.attributes, field).not.toHaveProperty(field);
    expect(gulf.attributes).toMatchObject({ title: 'Gulf Coast Shellers', field_handler_number: '103' });
    expect(gulf.relationships ?? {}).not.toHaveProperty('field_handler_analytics');
    expect(gulf.relationships ?? {}).not.toHaveProperty('field_handler_packet_confirms');
    const item = await get(`/jsonapi/node/handler/${d.handlers['103']}`, 'carol');
    expect(item.status).toBe(200);
    for (const field of CONTACTS) expect((item.body.data as Handler).attributes).not.toHaveProperty(field);
    const text = JSON.stringify(item.body);
    for (const secret of ['Secret Wharf', '0199', 'office@gulf']) expect(text).not.toContain(secret);
    // Its own figures stay its own.
    for (const rel of ['field_handler_analytics', 'field_handler_packet_confirms']) {
      const r = await get(`/jsonapi/node/handler/${d.handlers['103']}/relationships/${rel}`);
      expect([403, 404], rel).toContain(r.status);
    }
  });

  it('a filter or a search on the hidden contacts finds nothing', async () => {
    for (const [field, value] of [
      ['field_phone', '228 555 0199'],
      ['field_email', 'office@gulf.example'],
      ['field_address', '9 Secret Wharf, Biloxi'],
    ]) {
      expect(await list(`/jsonapi/node/handler?filter[${field}]=${encodeURIComponent(value)}`), field).toEqual([]);
      const contains = `/jsonapi/node/handler?filter[c][condition][path]=${field}&filter[c][condition][operator]=CONTAINS&filter[c][condition][value]=${encodeURIComponent(value.slice(2, 8))}`;
      expect(await list(contains), field).toEqual([]);
    }
  });

  it('the handler itself and staff read its contacts; a directory handler shows its card to others', async () => {
    const own = (await get(`/jsonapi/node/handler/${d.handlers['103']}`, 'dave')).body.data as Handler;
    expect(own.attributes.field_phone).toBe('228 555 0199');
    const staff = (await get(`/jsonapi/node/handler/${d.handlers['103']}`, 'staff')).body.data as Handler;
    expect(staff.attributes.field_email).toBe('office@gulf.example');
    const mesa = (await get(`/jsonapi/node/handler/${d.handlers['102']}`, 'dave')).body.data as Handler;
    for (const field of CONTACTS) expect(mesa.attributes, field).toHaveProperty(field);
    expect(mesa.relationships ?? {}).not.toHaveProperty('field_handler_analytics');
  });
});
