import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Row } from './resource.js';
import { allResources } from '../resources/index.js';
import { api, type ApiResponse } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksum, ensureDocumentRows, resources, type Res } from '../test-support/jsonapi-fixtures.js';

/**
 * Tenant isolation. Signed in as each demo handler user, every resource type's collection, every item path of a
 * row the user may not read, relationship endpoints, file links and filters, sorts and includes aimed at another
 * handler's data: none of it comes back. Who may read what is written here from the contract, independently of
 * server/src/resources/access.ts, and checked against rows read straight from the database. Then writes against
 * the other handlers' data: all refused, nothing changed.
 */
type Who = 'alice' | 'bob' | 'carol' | 'dave';
interface Viewer { who: Who; userId: string; handlerId: string; number: string }

const truthy = (v: unknown) => v === true || v === 1 || v === '1';
const HANDLER_OWNED = new Set(['node--handler_packet_confirmation', 'node--reporting_forms_package', 'node--apc_form_1', 'node--apc_form_2',
  'node--apc_form_3', 'node--apc_form_5', 'node--pecans_purchased_non_us', 'node--export_by_country', 'node--invoice', 'node--handler_analytics']);
const PUBLIC = new Set(['node--season', 'node--reporting_period', 'taxonomy_term--pecan_variety', 'node--annual_position_report', 'node--industry_analytics']);
const RESTRICTED_HANDLER_RELATIONSHIPS = ['field_handler_analytics', 'field_handler_packet_confirms'];
const RESTRICTED_USER_ATTRIBUTES = ['mail', 'status', 'field_role'];

async function parallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

describeEachDatabase('tenant isolation', (target) => {
  let d: DemoApp;
  const viewers = {} as Record<Who, Viewer>;
  /** Every row of every type, by type and id, read straight from the database (file contents left out). */
  const rows = new Map<string, Map<string, Row>>();
  let cases = 0;
  let writeChecksum: Record<string, string>;

  const row = (type: string, id: string) => rows.get(type)?.get(id);
  function readable(v: Viewer, type: string, id: string): boolean {
    const r = row(type, id);
    if (!r) return false;
    if (PUBLIC.has(type)) return true;
    if (HANDLER_OWNED.has(type)) return r.handler_id === v.handlerId;
    switch (type) {
      case 'node--handler': return r.id === v.handlerId || truthy(r.show_in_handler_directory);
      case 'user--user': return r.id === v.userId || (r.handler_id === v.handlerId && truthy(r.show_in_directory) && r.status === 'active');
      case 'node--apc_form_4': return r.transferring_handler_id === v.handlerId || r.receiving_handler_id === v.handlerId;
      case 'node--monthly_position_report': return truthy(r.publish_to_portal);
      case 'file--file': return readable(v, String(r.owner_type), String(r.owner_id));
      default: throw new Error(`no isolation rule for ${type}`);
    }
  }

  /** Every resource of a document is one the viewer may read, with no restricted member of a directory entry. */
  function leaks(v: Viewer, body: { data?: unknown; included?: unknown }, label: string): string[] {
    const found: string[] = [];
    const { data, included } = resources(body);
    for (const r of [...data, ...included] as Res[]) {
      if (!readable(v, r.type, r.id)) found.push(`${label}: ${r.type} ${r.id} is not ${v.who}'s to read`);
      if (r.type === 'node--handler' && r.id !== v.handlerId) {
        for (const name of RESTRICTED_HANDLER_RELATIONSHIPS) if (r.relationships?.[name]) found.push(`${label}: handler ${r.id} shows ${name}`);
      }
      if (r.type === 'user--user' && r.id !== v.userId) {
        for (const name of RESTRICTED_USER_ATTRIBUTES) if (name in r.attributes) found.push(`${label}: user ${r.id} shows ${name}`);
      }
      for (const [name, rel] of Object.entries(r.relationships ?? {})) {
        if (!Array.isArray(rel.data)) continue;
        for (const link of rel.data) if (!readable(v, link.type, link.id)) found.push(`${label}: ${r.type} ${r.id}.${name} links ${link.type} ${link.id}`);
      }
    }
    return found;
  }

  const get = (v: Viewer, url: string) => api(d.app, d.tokens[v.who], 'GET', url);

  /** A read that may answer 200 with readable resources only. */
  async function collectionIsClean(v: Viewer, url: string, problems: string[]): Promise<ApiResponse> {
    const r = await get(v, url);
    cases += 1;
    if (r.status !== 200) problems.push(`${url}: ${r.status} ${JSON.stringify(r.body?.errors?.[0]?.detail)}`);
    else problems.push(...leaks(v, r.body, url));
    return r;
  }

  /** A read of something the viewer may not read: 403 or 404 and no data. */
  async function refused(v: Viewer, url: string, problems: string[], statuses = [403, 404]): Promise<void> {
    const r = await get(v, url);
    cases += 1;
    if (!statuses.includes(r.status) || r.body?.data !== undefined || r.body?.included !== undefined) {
      problems.push(`${url}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    }
  }

  beforeAll(async () => {
    d = await demoApp(target);
    await ensureDocumentRows(d.ctx);
    for (const def of allResources) {
      const q = def.type === 'file--file'
        ? d.ctx.db.selectFrom('files').select(['id', 'filename', 'owner_type', 'owner_id'])
        : d.ctx.db.selectFrom(def.table).selectAll();
      rows.set(def.type, new Map((await q.execute()).map((r) => [String(r.id), r as Row])));
    }
    const users = rows.get('user--user')!;
    for (const who of ['alice', 'bob', 'carol', 'dave'] as const) {
      const u = [...users.values()].find((x) => x.name === who)!;
      const handlerId = String(u.handler_id);
      viewers[who] = { who, userId: String(u.id), handlerId, number: String(row('node--handler', handlerId)!.handler_number) };
    }
    // Every type has rows to test with, so no check below passes for want of data.
    for (const def of allResources) expect(rows.get(def.type)!.size, def.type).toBeGreaterThan(0);
  });
  afterAll(async () => {
    console.log(`[${target.dialect}] tenant isolation: ${cases} cases checked`);
    await d?.close();
  });

  for (const who of ['alice', 'bob', 'carol', 'dave'] as const) {
    it(`${who}: every collection, plain and with every relationship included, holds only readable resources`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      for (const def of allResources) {
        const base = `/jsonapi/${def.entity}/${def.bundle}?page[limit]=500`;
        const plain = await collectionIsClean(v, base, problems);
        // The collection is exactly the readable rows: nothing missing either (the filter is not just empty).
        const expected = [...rows.get(def.type)!.keys()].filter((id) => readable(v, def.type, id)).sort();
        if (plain.status === 200) expect(plain.body.data.map((x: { id: string }) => x.id).sort(), def.type).toEqual(expected);
        const rels = Object.keys(def.relationships);
        if (rels.length > 0) await collectionIsClean(v, `${base}&include=${rels.join(',')}`, problems);
      }
      expect(problems).toEqual([]);
    });

    it(`${who}: every item path of a row it may not read answers 403/404`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      const urls: string[] = [];
      for (const def of allResources) {
        for (const id of rows.get(def.type)!.keys()) if (!readable(v, def.type, id)) urls.push(`/jsonapi/${def.entity}/${def.bundle}/${id}`);
      }
      expect(urls.length).toBeGreaterThan(100);
      await parallel(urls, 8, (url) => refused(v, url, problems));
      expect(problems).toEqual([]);
    });

    it(`${who}: relationship endpoints of others' rows, and restricted relationships of directory entries`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      const urls: string[] = [];
      for (const def of allResources) {
        // The first three unreadable rows of each type, every relationship, both endpoints.
        const others = [...rows.get(def.type)!.keys()].filter((id) => !readable(v, def.type, id)).slice(0, 3);
        for (const id of others) {
          for (const field of Object.keys(def.relationships)) {
            urls.push(`/jsonapi/${def.entity}/${def.bundle}/${id}/relationships/${field}`, `/jsonapi/${def.entity}/${def.bundle}/${id}/${field}`);
          }
        }
      }
      await parallel(urls, 8, (url) => refused(v, url, problems));
      for (const h of rows.get('node--handler')!.values()) {
        if (h.id === v.handlerId || !readable(v, 'node--handler', String(h.id))) continue;
        for (const field of RESTRICTED_HANDLER_RELATIONSHIPS) {
          await refused(v, `/jsonapi/node/handler/${String(h.id)}/relationships/${field}`, problems);
          await refused(v, `/jsonapi/node/handler/${String(h.id)}/${field}`, problems);
        }
        const item = await collectionIsClean(v, `/jsonapi/node/handler/${String(h.id)}?include=${RESTRICTED_HANDLER_RELATIONSHIPS.join(',')}`, problems);
        expect(item.body.included ?? []).toEqual([]);
      }
      expect(problems).toEqual([]);
    });

    it(`${who}: file links of others' files with the bearer token are refused`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      const files = [...rows.get('file--file')!.values()].filter((f) => !readable(v, 'file--file', String(f.id)));
      expect(files.length).toBeGreaterThan(50);
      await parallel(files, 8, async (f) => {
        const r = await d.app.inject({ method: 'GET', url: `/files/${String(f.id)}/${encodeURIComponent(String(f.filename))}`, headers: { authorization: `Bearer ${d.tokens[v.who]}` } });
        cases += 1;
        if (r.statusCode !== 403 || r.rawPayload.subarray(0, 4).toString('latin1') === '%PDF') problems.push(`file ${String(f.id)}: ${r.statusCode}`);
      });
      // And one of its own downloads, so the refusals are not a broken route.
      const own = [...rows.get('file--file')!.values()].find((f) => f.owner_type === 'node--apc_form_1' && readable(v, 'file--file', String(f.id)))!;
      const ok = await d.app.inject({ method: 'GET', url: `/files/${String(own.id)}/x.pdf`, headers: { authorization: `Bearer ${d.tokens[v.who]}` } });
      expect(ok.statusCode).toBe(200);
      expect(problems).toEqual([]);
    });

    it(`${who}: filters, sorts and includes aimed at other handlers' data reveal none of it`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      const others = [...rows.get('node--handler')!.values()].filter((h) => h.id !== v.handlerId);
      const mustBeEmpty = async (url: string) => {
        const r = await collectionIsClean(v, url, problems);
        if (r.status === 200 && r.body.data.length > 0) problems.push(`${url}: ${r.body.data.length} results, expected none`);
      };
      for (const other of others) {
        const oid = String(other.id);
        const onum = String(other.handler_number);
        for (const def of allResources) {
          if (!def.relationships.field_handler) continue;
          const base = `/jsonapi/${def.entity}/${def.bundle}?page[limit]=500`;
          await mustBeEmpty(`${base}&filter[field_handler.id]=${oid}`);
          await mustBeEmpty(`${base}&filter[field_handler]=${oid}`);
          await mustBeEmpty(`${base}&filter[field_handler.field_handler_number]=${onum}`);
          await mustBeEmpty(`${base}&filter[h][condition][path]=field_handler.title&filter[h][condition][operator]=CONTAINS&filter[h][condition][value]=${encodeURIComponent(String(other.title).slice(0, 6))}`);
        }
        await mustBeEmpty(`/jsonapi/node/apc_form_4?filter[g][group][conjunction]=AND&filter[a][condition][path]=field_transferring_handler.field_handler_number&filter[a][condition][value]=${onum}&filter[a][condition][memberOf]=g&filter[b][condition][path]=field_receiving_handler.id&filter[b][condition][operator]=%3C%3E&filter[b][condition][value]=${v.handlerId}&filter[b][condition][memberOf]=g`);
        await mustBeEmpty(`/jsonapi/user/user?filter[field_user_handler_company.id]=${oid}`);
        await mustBeEmpty(`/jsonapi/user/user?filter[field_user_handler_company.field_handler_number]=${onum}`);
        await mustBeEmpty(`/jsonapi/node/reporting_forms_package?filter[field_form_1.field_handler.id]=${oid}`);
        await mustBeEmpty(`/jsonapi/node/handler_analytics?filter[field_handler.field_handler_number]=${onum}&include=field_analytics_xlsx`);
      }
      for (const c of rows.get('node--handler_packet_confirmation')!.values()) {
        if (c.handler_id === v.handlerId) continue;
        // A handler's confirmations are not in its directory card, so no filter may match through them.
        await mustBeEmpty(`/jsonapi/node/handler?filter[field_handler_packet_confirms.id]=${String(c.id)}`);
        await mustBeEmpty(`/jsonapi/node/handler?filter[field_handler_packet_confirms.field_certification_name]=${encodeURIComponent(String(c.certification_name))}`);
      }
      for (const a of rows.get('node--handler_analytics')!.values()) {
        if (a.handler_id !== v.handlerId) await mustBeEmpty(`/jsonapi/node/handler?filter[field_handler_analytics.id]=${String(a.id)}`);
      }
      for (const u of rows.get('user--user')!.values()) {
        if (u.id === v.userId) continue;
        // Another user's mail never matches, even for a colleague whose directory card this user can read.
        await mustBeEmpty(`/jsonapi/user/user?filter[mail]=${encodeURIComponent(String(u.mail))}`);
        await mustBeEmpty(`/jsonapi/user/user?filter[name]=${String(u.name)}&filter[m][condition][path]=mail&filter[m][condition][operator]=IS%20NOT%20NULL`);
        await mustBeEmpty(`/jsonapi/user/user?filter[name]=${String(u.name)}&filter[field_role]=${String(u.role)}`);
      }
      // Broad reads with cross-handler includes and sorts: only readable resources, in full only where allowed.
      const broad = [
        '/jsonapi/node/reporting_forms_package?page[limit]=500&include=field_handler.field_handler_packet_confirms,field_handler.field_handler_analytics&sort=field_handler.title',
        '/jsonapi/node/invoice?page[limit]=500&include=field_handler.field_handler_packet_confirms,field_form_1.field_handler&sort=-field_handler.title',
        '/jsonapi/node/apc_form_4?include=field_transferring_handler.field_handler_packet_confirms,field_receiving_handler.field_handler_analytics,field_form_4_pdf&sort=field_receiving_handler.title',
        '/jsonapi/node/handler?include=field_handler_packet_confirms.field_handler,field_handler_analytics.field_analytics_xlsx&sort=field_handler_number',
        '/jsonapi/user/user?include=field_user_handler_company.field_handler_packet_confirms&sort=mail',
        '/jsonapi/file/file?page[limit]=500&filter[f][condition][path]=filename&filter[f][condition][operator]=CONTAINS&filter[f][condition][value]=10',
        '/jsonapi/node/pecans_purchased_non_us?page[limit]=500&include=field_form.field_handler.field_handler_analytics,field_form.field_form_2_pdf',
        '/jsonapi/node/export_by_country?page[limit]=500&include=field_form.field_reporting_forms_package.field_form_3&sort=-field_form.field_handler.title',
        '/jsonapi/node/apc_form_5?include=field_handler.field_handler_analytics,field_amendment_of,field_form_5_pdf&sort=field_handler.field_handler_number',
      ];
      for (const url of broad) await collectionIsClean(v, url, problems);
      expect(problems).toEqual([]);
    });

    it(`${who}: writes against other handlers' data are refused and change nothing`, async () => {
      const v = viewers[who];
      const problems: string[] = [];
      const token = d.tokens[v.who];
      const before = await checksum(d.ctx);
      const snapshot = async (table: string, id: string) => d.ctx.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
      const denied = async (method: string, url: string, body: unknown, table: string | null, id: string | null, allowed = [403, 404]) => {
        const was = table && id ? await snapshot(table, id) : null;
        const r = await api(d.app, token, method, url, body);
        cases += 1;
        if (!allowed.includes(r.status)) problems.push(`${method} ${url}: ${r.status} ${JSON.stringify(r.body?.errors?.[0]?.detail ?? r.body)}`);
        else if (r.body?.errors?.[0]?.status !== String(r.status)) problems.push(`${method} ${url}: not an error document`);
        if (table && id) {
          const now = await snapshot(table, id);
          if (JSON.stringify(now) !== JSON.stringify(was)) problems.push(`${method} ${url}: ${table} ${id} changed`);
        }
      };
      const link = (type: string, id: string) => ({ data: { type, id } });
      const currentSeason = [...rows.get('node--season')!.values()].find((s) => truthy(s.current_season))!;
      const ownConfirmation = [...rows.get('node--handler_packet_confirmation')!.values()].find((c) => c.handler_id === v.handlerId);

      for (const other of [...rows.get('node--handler')!.values()].filter((h) => h.id !== v.handlerId)) {
        const oid = String(other.id);
        const of = (type: string, pred: (r: Row) => boolean = () => true) => [...rows.get(type)!.values()].find((r) => r.handler_id === oid && pred(r))!;
        for (const n of [1, 2, 3] as const) {
          const type = `node--apc_form_${n}`;
          const url = `/jsonapi/node/apc_form_${n}`;
          const draft = of(type, (r) => r.form_status === 'draft');
          const certified = of(type, (r) => r.form_status === 'certified');
          await denied('PATCH', `${url}/${String(draft.id)}`, { data: { type, id: draft.id, attributes: { field_date_completed: '2026-11-20' } } }, `apc_form_${n}`, String(draft.id));
          await denied('PATCH', `${url}/${String(draft.id)}`, { data: { type, id: draft.id, attributes: { field_no_change_flag: true, field_certified: true, field_certification_name: v.who } } }, `apc_form_${n}`, String(draft.id));
          await denied('PATCH', `${url}/${String(certified.id)}`, { data: { type, id: certified.id, attributes: { field_date_completed: '2026-11-20' } } }, `apc_form_${n}`, String(certified.id));
          await denied('POST', url, { data: { type, attributes: { field_amendment_reason: 'x' }, relationships: { field_amendment_of: link(type, String(certified.id)) } } }, `apc_form_${n}`, String(certified.id));
          await denied('DELETE', `${url}/${String(certified.id)}`, undefined, `apc_form_${n}`, String(certified.id), [403, 404, 405]);
          const pkg = of('node--reporting_forms_package', (r) => r.id === certified.package_id);
          await denied('POST', `/jsonapi/node/reporting_forms_package/${String(pkg.id)}/relationships/field_form_${n}`, { data: [{ type, id: certified.id }] }, 'reporting_forms_packages', String(pkg.id));
        }
        const form5 = of('node--apc_form_5');
        await denied('PATCH', `/jsonapi/node/apc_form_5/${String(form5.id)}`, { data: { type: 'node--apc_form_5', id: form5.id, attributes: { field_shelled_wip: 1 } } }, 'apc_form_5', String(form5.id));
        await denied('POST', '/jsonapi/node/apc_form_5', { data: { type: 'node--apc_form_5', attributes: {}, relationships: { field_amendment_of: link('node--apc_form_5', String(form5.id)) } } }, 'apc_form_5', String(form5.id));
        const draft2 = of('node--apc_form_2', (r) => r.form_status === 'draft');
        const draft3 = of('node--apc_form_3', (r) => r.form_status === 'draft');
        await denied('POST', '/jsonapi/node/pecans_purchased_non_us', { data: { type: 'node--pecans_purchased_non_us', attributes: { field_import_date: '2026-11-02', field_country_of_origin: 'MX', field_inshell_lb: 1, field_shelled_lb: 0 }, relationships: { field_form: link('node--apc_form_2', String(draft2.id)) } } }, 'apc_form_2', String(draft2.id));
        await denied('POST', '/jsonapi/node/export_by_country', { data: { type: 'node--export_by_country', attributes: { field_country: 'CA', field_inshell_lb: 1, field_shelled_lb: 0, field_substandard_lb: 0 }, relationships: { field_form: link('node--apc_form_3', String(draft3.id)) } } }, 'apc_form_3', String(draft3.id));
        for (const [type, table] of [['node--pecans_purchased_non_us', 'pecans_purchased_non_us'], ['node--export_by_country', 'export_by_country']] as const) {
          const sub = of(type);
          if (!sub) continue;
          await denied('PATCH', `/jsonapi/node/${table}/${String(sub.id)}`, { data: { type, id: sub.id, attributes: { field_inshell_lb: 7 } } }, table, String(sub.id));
          await denied('DELETE', `/jsonapi/node/${table}/${String(sub.id)}`, undefined, table, String(sub.id));
        }
        await denied('POST', '/jsonapi/node/handler_packet_confirmation', { data: { type: 'node--handler_packet_confirmation', attributes: { field_handler_packet_confirm: true, field_certification_name: v.who }, relationships: { field_handler: link('node--handler', oid), field_season: link('node--season', String(currentSeason.id)) } } }, null, null);
        const theirConfirmation = of('node--handler_packet_confirmation');
        if (theirConfirmation) {
          await denied('PATCH', `/jsonapi/node/handler_packet_confirmation/${String(theirConfirmation.id)}`, { data: { type: 'node--handler_packet_confirmation', id: theirConfirmation.id, attributes: { field_handler_packet_confirm: false } } }, 'handler_packet_confirmations', String(theirConfirmation.id));
          await denied('DELETE', `/jsonapi/node/handler_packet_confirmation/${String(theirConfirmation.id)}`, undefined, 'handler_packet_confirmations', String(theirConfirmation.id), [403, 404, 405]);
          await denied('POST', `/jsonapi/node/handler/${oid}/relationships/field_handler_packet_confirms`, { data: [{ type: 'node--handler_packet_confirmation', id: theirConfirmation.id }] }, 'handlers', oid);
        }
        if (ownConfirmation) {
          await denied('POST', `/jsonapi/node/handler/${oid}/relationships/field_handler_packet_confirms`, { data: [{ type: 'node--handler_packet_confirmation', id: ownConfirmation.id }] }, 'handler_packet_confirmations', String(ownConfirmation.id));
        }
        await denied('PATCH', `/jsonapi/node/handler/${oid}`, { data: { type: 'node--handler', id: oid, attributes: { field_phone: '000' } } }, 'handlers', oid);
        const invoice = of('node--invoice');
        await denied('PATCH', `/jsonapi/node/invoice/${String(invoice.id)}`, { data: { type: 'node--invoice', id: invoice.id, attributes: {} } }, 'invoices', String(invoice.id), [403, 404, 405]);
        // A form 4 filed in the other handler's name.
        await denied('POST', '/jsonapi/node/apc_form_4', { data: { type: 'node--apc_form_4', attributes: { field_responsible_handler: 'receiving', field_first_transfer_month: '2026-12' }, relationships: { field_transferring_handler: link('node--handler', oid), field_receiving_handler: link('node--handler', v.handlerId), field_season: link('node--season', String(currentSeason.id)) } } }, null, null);
      }
      // Forms 4: those it is no party to are refused; as the receiving party it may not edit the transferring one's agreement.
      for (const f4 of rows.get('node--apc_form_4')!.values()) {
        const id = String(f4.id);
        const body = { data: { type: 'node--apc_form_4', id, attributes: { field_first_transfer_month: '2027-01' } } };
        if (f4.transferring_handler_id !== v.handlerId && f4.receiving_handler_id !== v.handlerId) {
          await denied('PATCH', `/jsonapi/node/apc_form_4/${id}`, body, 'apc_form_4', id);
          await denied('PATCH', `/jsonapi/node/apc_form_4/${id}`, { data: { type: 'node--apc_form_4', id, attributes: { field_form_activity: 'cancelled' } } }, 'apc_form_4', id);
        } else if (f4.receiving_handler_id === v.handlerId && f4.form_activity === 'active') {
          await denied('PATCH', `/jsonapi/node/apc_form_4/${id}`, body, 'apc_form_4', id, [403]);
        }
      }
      // Other users' profiles, colleagues included.
      for (const u of rows.get('user--user')!.values()) {
        if (u.id === v.userId) continue;
        const id = String(u.id);
        await denied('PATCH', `/jsonapi/user/user/${id}`, { data: { type: 'user--user', id, attributes: { field_job_title: 'Taken over' } } }, 'users', id);
        await denied('PATCH', `/jsonapi/user/user/${id}`, { data: { type: 'user--user', id, attributes: { mail: `${v.who}-owns-this@example.com` } } }, 'users', id);
      }
      // Its own handler's record and the reference data are staff's.
      await denied('PATCH', `/jsonapi/node/handler/${v.handlerId}`, { data: { type: 'node--handler', id: v.handlerId, attributes: { field_show_in_handler_directory: true } } }, 'handlers', v.handlerId, [403]);
      await denied('PATCH', `/jsonapi/node/season/${String(currentSeason.id)}`, { data: { type: 'node--season', id: currentSeason.id, attributes: { field_current_season: false } } }, 'seasons', String(currentSeason.id), [403]);
      await denied('POST', '/jsonapi/node/handler', { data: { type: 'node--handler', attributes: { title: 'Rogue', field_handler_number: '999', field_handler_status: 'active', field_show_in_handler_directory: true } } }, null, null, [403]);

      expect(problems).toEqual([]);
      expect(await checksum(d.ctx)).toEqual(before);
      writeChecksum = before;
    });
  }

  it('the database is as the demo left it after all refused writes', async () => {
    expect(writeChecksum).toBeDefined();
    expect(await checksum(d.ctx)).toEqual(writeChecksum);
    expect(cases).toBeGreaterThan(1000);
  });
});
