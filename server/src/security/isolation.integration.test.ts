import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ResourceDef, Row } from '../jsonapi/resource.js';
import { databaseChecksum, checksumDiff, type Checksum } from '../reliability/checksum.js';
import { allResources } from '../resources/index.js';
import { api, type ApiResponse } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { ensureDocumentRows, resources, type Res } from '../test-support/jsonapi-fixtures.js';
import {
  fieldPaths,
  follow,
  IsolationModel,
  leakedSecrets,
  LEGITIMATE_CROSS_LINKS,
  relationshipPaths,
  type Rows,
  type Viewer,
  type Who,
} from './isolation-model.js';

/**
 * Tenant isolation, generated from the resource registry (`allResources`). Signed in as each demo handler user
 * (alice and bob of handler 101, carol of 102, dave of 103), against every other handler's data:
 * - reads: every collection (exactly the readable rows), every include path up to 3 hops, every item of a row it
 *   may not read, relationship endpoints, filters on every attribute and id up to 2 hops with values taken from the
 *   other handlers' rows, sorts on every attribute up to 2 hops, file downloads by bearer and by tampered signed link;
 * - writes: PATCH and DELETE of others' rows, POSTs linking to others' rows or reusing their ids, PATCHes of one's
 *   own rows re-linked to others' rows, additions to relationships both ways, and PATCH/DELETE of relationships.
 * Every response is searched for the other handlers' ids and text values (collected first from the database), every
 * resource in it must be readable under the contract's rules, and the checksum of every row of every table must
 * be the same after all refused writes. It prints "isolation: N cases" and N must exceed a floor computed from the
 * registry, so a new type or field adds cases by itself.
 */
const WHO: Who[] = ['alice', 'bob', 'carol', 'dave'];
const WIDTH = 8;

async function parallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

const collectionUrl = (def: ResourceDef) => `/jsonapi/${def.entity}/${def.bundle}`;
const itemUrl = (def: ResourceDef, id: string) => `${collectionUrl(def)}/${id}`;
const q = (s: string) => encodeURIComponent(s);

/**
 * The least number of cases the generator must produce: one per type, include path, relationship and field path, per
 * user.
 */
function registryFloor(model: IsolationModel): number {
  let n = 0;
  for (const def of allResources) {
    n += 1 + relationshipPaths(model, def.type, 3).length + 2 * Object.keys(def.relationships).length;
    n += fieldPaths(model, def.type, 1).filter((p) => p.rels.length > 0).length;
  }
  return n * WHO.length;
}

describeEachDatabase('tenant isolation (generated)', (target) => {
  let d: DemoApp;
  let model: IsolationModel;
  const viewers = {} as Record<Who, Viewer>;
  /** Every row as staff read it through the API (encoded attributes and linkage), to build valid write bodies. */
  const apiRows = new Map<string, Res>();
  const counts: Record<string, number> = {};
  let before: Checksum;

  const count = (kind: string) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const total = () => Object.values(counts).reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    d = await demoApp(target);
    await ensureDocumentRows(d.ctx);
    const rows: Rows = new Map();
    for (const def of allResources) {
      const query =
        def.type === 'file--file'
          ? d.ctx.db.selectFrom('files').select(['id', 'filename', 'filemime', 'owner_type', 'owner_id'])
          : d.ctx.db.selectFrom(def.table).selectAll();
      rows.set(def.type, new Map((await query.execute()).map((r) => [String(r.id), r as Row])));
      for (let offset = 0; ; offset += 500) {
        const page = await api(
          d.app,
          d.tokens.staff,
          'GET',
          `${collectionUrl(def)}?page[limit]=500&page[offset]=${offset}`,
        );
        expect(page.status, def.type).toBe(200);
        for (const r of page.body.data as Res[]) apiRows.set(r.id, r);
        if (page.body.data.length < 500) break;
      }
    }
    model = new IsolationModel(allResources, rows);
    for (const who of WHO) {
      const u = model.rowsOf('user--user').find((x) => x.name === who)!;
      viewers[who] = { who, userId: String(u.id), handlerId: String(u.handler_id) };
    }
    // Every type has rows, and every type has rows some handler user may not read: no case passes for want of data.
    for (const def of allResources) expect(model.rowsOf(def.type).length, def.type).toBeGreaterThan(0);
    before = await databaseChecksum(d.ctx.db, d.ctx.dialect);
  });

  afterAll(async () => {
    const summary = Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    console.log(`[${target.dialect}] isolation: ${total()} cases (${summary})`);
    await d?.close();
  });

  /**
   * A request as `v`: counted, searched for `v`'s secrets, every resource in it readable (and restricted members only
   * where full).
   */
  function checker(v: Viewer) {
    const secrets = model.secrets(v);
    const problems: string[] = [];
    const send = async (kind: string, method: string, url: string, body?: unknown): Promise<ApiResponse> => {
      const r = await api(d.app, d.tokens[v.who], method, url, body);
      count(kind);
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
      const request = `${url} ${body === undefined ? '' : JSON.stringify(body)}`;
      for (const leak of leakedSecrets(secrets, text, request)) problems.push(`${method} ${url}: shows ${leak}`);
      if (r.status >= 500) problems.push(`${method} ${url}: ${r.status}`);
      if (r.status === 200 && r.body && typeof r.body === 'object' && 'data' in r.body)
        problems.push(...structure(v, r.body, `${method} ${url}`));
      return r;
    };
    return { send, problems, secrets };
  }

  function structure(v: Viewer, body: { data?: unknown; included?: unknown }, label: string): string[] {
    const found: string[] = [];
    const { data, included } = resources(body);
    for (const r of [...data, ...included]) {
      if (!r || typeof r !== 'object' || !('attributes' in r)) continue; // linkage-only documents
      if (!model.readable(v, r.type, r.id)) {
        found.push(`${label}: ${r.type} ${r.id} is not ${v.who}'s to read`);
        continue;
      }
      if (model.full(v, r.type, r.id)) continue;
      const def = model.def(r.type);
      const hidden = (visibility: string) => !model.shows(v, r.type, r.id, visibility);
      for (const [name, a] of Object.entries(def.attributes))
        if (hidden(a.visibility) && name in r.attributes) found.push(`${label}: ${r.type} ${r.id} shows ${name}`);
      for (const [name, rel] of Object.entries(def.relationships))
        if (hidden(rel.visibility) && r.relationships?.[name]) found.push(`${label}: ${r.type} ${r.id} shows ${name}`);
    }
    return found;
  }

  /** A read that must be refused: 403 or 404, an error document, no data. */
  const refusedRead = (r: ApiResponse, label: string, problems: string[]) => {
    if (![403, 404].includes(r.status) || r.body?.data !== undefined || r.body?.included !== undefined)
      problems.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  };

  for (const who of WHO) {
    it(`${who}: collections, includes to 3 hops, items, relationship endpoints and file links show nothing of other handlers`, async () => {
      const v = viewers[who];
      const { send, problems } = checker(v);
      const jobs: Array<() => Promise<void>> = [];
      for (const def of allResources) {
        const base = `${collectionUrl(def)}?page[limit]=500`;
        jobs.push(async () => {
          const r = await send('collection', 'GET', base);
          const expected = model
            .rowsOf(def.type)
            .map((x) => String(x.id))
            .filter((id) => model.readable(v, def.type, id))
            .sort();
          if (r.status !== 200) problems.push(`${base}: ${r.status}`);
          else if (JSON.stringify((r.body.data as Res[]).map((x) => x.id).sort()) !== JSON.stringify(expected))
            problems.push(`${base}: not exactly the readable rows`);
        });
        for (const { path } of relationshipPaths(model, def.type, 3)) {
          const url = `${base}&include=${path.join('.')}`;
          jobs.push(async () => {
            const r = await send('include', 'GET', url);
            if (r.status !== 200) problems.push(`${url}: ${r.status}`);
          });
        }
        const rels = Object.keys(def.relationships);
        // Every row it may not read, by its item path (the first of each other handler's with every relationship
        // included).
        const withInclude = new Set(model.sampleUnreadable(v, def.type, 1).map((r) => String(r.id)));
        for (const row of model.unreadable(v, def.type)) {
          const id = String(row.id);
          const include = withInclude.has(id) && rels.length ? `?include=${rels.join(',')}` : '';
          jobs.push(async () =>
            refusedRead(await send('item', 'GET', `${itemUrl(def, id)}${include}`), itemUrl(def, id), problems),
          );
        }
        // Relationship endpoints of others' rows (one of each type per other handler), both forms.
        for (const row of model.sampleUnreadable(v, def.type, 1)) {
          for (const field of rels) {
            for (const url of [
              `${itemUrl(def, String(row.id))}/${field}`,
              `${itemUrl(def, String(row.id))}/relationships/${field}`,
            ]) {
              jobs.push(async () => refusedRead(await send('relationship', 'GET', url), url, problems));
            }
          }
        }
        // Rows it reads but not in full (directory cards, colleagues): their restricted relationships are refused;
        // the other relationships, and those of rows it reads in full, answer only what it may read.
        for (const row of model
          .rowsOf(def.type)
          .filter((r) => model.readable(v, def.type, String(r.id)))
          .slice(0, 3)) {
          for (const [field, rel] of Object.entries(def.relationships)) {
            for (const url of [
              `${itemUrl(def, String(row.id))}/${field}`,
              `${itemUrl(def, String(row.id))}/relationships/${field}`,
            ]) {
              jobs.push(async () => {
                const r = await send('relationship', 'GET', url);
                if (!model.shows(v, def.type, String(row.id), rel.visibility)) refusedRead(r, url, problems);
                else if (r.status !== 200) problems.push(`${url}: ${r.status}`);
              });
            }
          }
        }
      }
      for (const def of allResources) {
        for (const row of model
          .rowsOf(def.type)
          .filter((r) => model.readable(v, def.type, String(r.id)) && !model.full(v, def.type, String(r.id)))) {
          for (const [field, rel] of Object.entries(def.relationships)) {
            if (model.shows(v, def.type, String(row.id), rel.visibility)) continue;
            const url = `${itemUrl(def, String(row.id))}/relationships/${field}`;
            jobs.push(async () => refusedRead(await send('relationship', 'GET', url), url, problems));
          }
        }
      }
      // Files: each one it may not read, with its bearer token; some with a signed link of its own file moved to them.
      const moveTo = new Set(model.sampleUnreadable(v, 'file--file', 10).map((f) => String(f.id)));
      const own = model.rowsOf('file--file').find((f) => model.readable(v, 'file--file', String(f.id)))!;
      const ownLink = new URL(String((apiRows.get(String(own.id))!.attributes.uri as { url: string }).url));
      for (const f of model.unreadable(v, 'file--file')) {
        jobs.push(async () => {
          const r = await d.app.inject({
            method: 'GET',
            url: `/files/${String(f.id)}/${q(String(f.filename))}`,
            headers: { authorization: `Bearer ${d.tokens[v.who]}` },
          });
          count('file');
          if (r.statusCode !== 403 || r.headers['content-type'] === f.filemime)
            problems.push(`file ${String(f.id)}: ${r.statusCode}`);
          if (!moveTo.has(String(f.id))) return;
          const moved = await d.app.inject({
            method: 'GET',
            url: `/files/${String(f.id)}/${q(String(f.filename))}${ownLink.search}`,
          });
          count('file');
          if (moved.statusCode !== 401 || moved.headers['content-type'] === f.filemime)
            problems.push(`signed link moved to ${String(f.id)}: ${moved.statusCode}`);
        });
      }
      await parallel(jobs, WIDTH, (job) => job());
      // Its own file downloads, so the refusals are not a broken route.
      const ok = await d.app.inject({
        method: 'GET',
        url: `/files/${String(own.id)}/x`,
        headers: { authorization: `Bearer ${d.tokens[v.who]}` },
      });
      expect(ok.statusCode).toBe(200);
      expect(problems).toEqual([]);
    });

    it(`${who}: filters with other handlers' values match nothing; sorts through relationships order unreadable rows as empty`, async () => {
      const v = viewers[who];
      const { send, problems, secrets } = checker(v);
      const jobs: Array<() => Promise<void>> = [];
      for (const def of allResources) {
        const base = `${collectionUrl(def)}?page[limit]=500`;
        const readableRows = model.rowsOf(def.type).filter((r) => model.readable(v, def.type, String(r.id)));
        for (const [pathIndex, p] of fieldPaths(model, def.type, 2).entries()) {
          // Filters: values of the path's end found only in rows (or restricted members) the viewer may not read.
          const targetRows = model.rowsOf(p.target.type);
          const column = p.attribute?.column ?? 'id';
          const visible = new Set(
            targetRows
              .filter(
                (r) =>
                  model.readable(v, p.target.type, String(r.id)) &&
                  model.shows(v, p.target.type, String(r.id), p.attribute?.visibility ?? 'public'),
              )
              .map((r) => String(r[column])),
          );
          // Through a restricted relationship, nothing of a card's hidden list is visible.
          const picks = new Map<string, string>();
          for (const r of targetRows) {
            const value = r[column];
            if (value == null || typeof value === 'object' || visible.has(String(value))) continue;
            // An id a readable row points at (a form 4's other party) is known to the viewer, not a secret.
            if (!p.attribute && !secrets.ids.has(String(value))) continue;
            if (
              p.attribute &&
              p.attribute.codec !== 'string' &&
              p.attribute.codec !== 'int' &&
              p.attribute.codec !== 'date' &&
              p.attribute.codec !== 'datetime'
            )
              continue;
            const owner = model.owners(p.target.type, r).find((h) => h !== v.handlerId) ?? String(r.id);
            if (!picks.has(owner)) picks.set(owner, String(value));
          }
          // One value per path, from each other handler in turn, keeps the run short and still reaches every handler.
          const values = [...picks.values()];
          for (const value of values.length ? [values[pathIndex % values.length]] : []) {
            const url = `${base}&filter[${p.path}]=${q(value)}`;
            jobs.push(async () => {
              const r = await send('filter', 'GET', url);
              if (r.status === 400) return; // not filterable (e.g. a list field): refused by name, nothing shown
              if (r.status !== 200) problems.push(`${url}: ${r.status}`);
              else {
                // A match is a leak unless the viewer can see the value itself through that very path.
                const shown = (r.body.data as Res[]).filter((x) => {
                  const row = model.row(def.type, x.id)!;
                  const end = p.rels.every((rel) => rel.kind === 'one') ? follow(model, v, row, p.rels) : undefined;
                  return !(
                    end &&
                    String(end[column]) === value &&
                    model.shows(v, p.target.type, String(end.id), p.attribute?.visibility ?? 'public')
                  );
                });
                if (shown.length > 0) problems.push(`${url}: matched ${shown.length} rows by a value it may not see`);
              }
            });
          }
          // Sorts through to-one relationships: a row whose related row is unreadable sorts as if the value were empty.
          // (Two hops: text fields, which is what a competitor would sort by to learn something.)
          if (
            p.rels.length === 0 ||
            p.rels.some((rel) => rel.kind === 'many') ||
            !p.attribute ||
            p.attribute.codec === 'json'
          )
            continue;
          if (p.rels.length > 1 && p.attribute.codec !== 'string') continue;
          const url = `${base}&sort=${p.path}`;
          jobs.push(async () => {
            const r = await send('sort', 'GET', url);
            if (r.status !== 200) {
              problems.push(`${url}: ${r.status}`);
              return;
            }
            const got = (r.body.data as Res[]).map((x) => x.id);
            if (got.length !== readableRows.length)
              problems.push(`${url}: ${got.length} rows, expected ${readableRows.length}`);
            const hidden = (id: string) => {
              const row = model.row(def.type, id);
              if (!row) return false;
              const end = follow(model, v, row, p.rels);
              return end == null || end[p.attribute!.column] == null;
            };
            const firstShown = got.findIndex((id) => !hidden(id));
            if (firstShown >= 0 && got.slice(firstShown).some(hidden))
              problems.push(`${url}: a row whose ${p.path} is hidden sorts among visible values`);
          });
        }
      }
      await parallel(jobs, WIDTH, (job) => job());
      expect(problems).toEqual([]);
    });

    it(`${who}: every kind of write against other handlers' data is refused and changes nothing`, async () => {
      const v = viewers[who];
      const { send, problems } = checker(v);
      const jobs: Array<() => Promise<void>> = [];
      const refusedWrite = (label: string, r: ApiResponse) => {
        if (r.status < 400 || r.status >= 500)
          problems.push(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        else if (r.body?.errors?.[0]?.status !== String(r.status)) problems.push(`${label}: not an error document`);
      };
      const link = (type: string, id: string) => ({ data: { type, id } });
      /**
       * Writable attributes of a row as the API shows it, with values from another row so a write would change them.
       */
      const attributesFrom = (def: ResourceDef, source: Res | undefined) =>
        Object.fromEntries(
          Object.entries(def.attributes)
            .filter(([name, a]) => a.writable && source && name in source.attributes)
            .map(([name]) => [name, source!.attributes[name]]),
        );
      const ownOf = (type: string) =>
        model
          .rowsOf(type)
          .filter((r) => model.readable(v, type, String(r.id)))
          .map((r) => apiRows.get(String(r.id))!)
          .filter(Boolean);
      const foreign = (type: string) => model.sampleUnreadable(v, type, 1);

      for (const def of allResources) {
        const own = ownOf(def.type);
        const donor = own[0] ?? apiRows.get(String(model.rowsOf(def.type)[0].id));
        const writableOnes = Object.entries(def.relationships).filter(([, rel]) => rel.kind === 'one' && rel.writable);
        // PATCH and DELETE of others' rows: all writable attributes, and every writable relationship re-pointed.
        for (const row of model.sampleUnreadable(v, def.type, 3)) {
          const id = String(row.id);
          const relationships = Object.fromEntries(
            writableOnes.flatMap(([name, rel]) => {
              const mine = ownOf(rel.target)[0];
              return mine ? [[name, link(rel.target, mine.id)]] : [];
            }),
          );
          jobs.push(async () =>
            refusedWrite(
              `PATCH ${def.type} ${id}`,
              await send('write', 'PATCH', itemUrl(def, id), {
                data: { type: def.type, id, attributes: attributesFrom(def, donor), relationships },
              }),
            ),
          );
          jobs.push(async () =>
            refusedWrite(
              `PATCH ${def.type} ${id} (empty)`,
              await send('write', 'PATCH', itemUrl(def, id), { data: { type: def.type, id, attributes: {} } }),
            ),
          );
          jobs.push(async () =>
            refusedWrite(`DELETE ${def.type} ${id}`, await send('write', 'DELETE', itemUrl(def, id))),
          );
        }
        // Rows it reads but does not own (others' directory cards, colleagues, forms 4 it receives, reference data).
        for (const r of own) {
          const row = model.row(def.type, r.id)!;
          // A form 4 is shared by its two parties (the receiving one countersigns or cancels): its workflow tests cover
          // that.
          const owned = model.owners(def.type, row).includes(v.handlerId) && def.type !== 'node--handler';
          if (owned && def.type !== 'user--user') continue;
          if (def.type === 'user--user' && r.id === v.userId) continue;
          const other = model
            .rowsOf(def.type)
            .map((x) => apiRows.get(String(x.id)))
            .find((x) => x && x.id !== r.id);
          jobs.push(async () =>
            refusedWrite(
              `PATCH ${def.type} ${r.id} (not its own)`,
              await send('write', 'PATCH', itemUrl(def, r.id), {
                data: { type: def.type, id: r.id, attributes: attributesFrom(def, other) },
              }),
            ),
          );
          jobs.push(async () =>
            refusedWrite(`DELETE ${def.type} ${r.id} (not its own)`, await send('write', 'DELETE', itemUrl(def, r.id))),
          );
        }
        // POST: each writable to-one pointing at each other handler's row, the rest at its own; and a taken id.
        for (const [name, rel] of writableOnes) {
          if (LEGITIMATE_CROSS_LINKS.has(`${def.type}.${name}`)) continue;
          for (const theirs of foreign(rel.target)) {
            const relationships: Record<string, unknown> = Object.fromEntries(
              writableOnes.flatMap(([n, r]) => {
                const mine =
                  n === 'field_receiving_handler'
                    ? ownOf(r.target).find((x) => x.id !== String(theirs.id))
                    : ownOf(r.target)[0];
                return mine ? [[n, link(r.target, mine.id)]] : [];
              }),
            );
            relationships[name] = link(rel.target, String(theirs.id));
            if (def.type === 'node--apc_form_4' && name === 'field_transferring_handler')
              relationships.field_receiving_handler = link('node--handler', v.handlerId);
            jobs.push(async () =>
              refusedWrite(
                `POST ${def.type} with ${name} -> ${rel.target} ${String(theirs.id)}`,
                await send('write', 'POST', collectionUrl(def), {
                  data: { type: def.type, attributes: attributesFrom(def, donor), relationships },
                }),
              ),
            );
            // Its own rows re-linked to the other handler's.
            for (const mine of own.slice(0, 2)) {
              const owned = model.owners(def.type, model.row(def.type, mine.id)!).includes(v.handlerId);
              if (!owned) continue;
              jobs.push(async () =>
                refusedWrite(
                  `PATCH own ${def.type} ${mine.id} ${name} -> ${String(theirs.id)}`,
                  await send('write', 'PATCH', itemUrl(def, mine.id), {
                    data: {
                      type: def.type,
                      id: mine.id,
                      relationships: { [name]: link(rel.target, String(theirs.id)) },
                    },
                  }),
                ),
              );
            }
          }
        }
        for (const theirs of foreign(def.type)) {
          const id = String(theirs.id);
          jobs.push(async () =>
            refusedWrite(
              `POST ${def.type} with the id of ${id}`,
              await send('write', 'POST', collectionUrl(def), {
                data: { type: def.type, id, attributes: attributesFrom(def, donor) },
              }),
            ),
          );
        }
        // Relationship writes: others' rows given its own targets, its own rows given others' targets; PATCH/DELETE.
        for (const [field, rel] of Object.entries(def.relationships)) {
          for (const owner of foreign(def.type)) {
            const mine = ownOf(rel.target)
              .slice(0, 1)
              .map((x) => ({ type: rel.target, id: x.id }));
            const url = `${itemUrl(def, String(owner.id))}/relationships/${field}`;
            jobs.push(async () =>
              refusedWrite(
                `POST ${url}`,
                await send('write', 'POST', url, { data: rel.kind === 'many' ? mine : (mine[0] ?? null) }),
              ),
            );
            jobs.push(async () =>
              refusedWrite(
                `PATCH ${url}`,
                await send('write', 'PATCH', url, { data: rel.kind === 'many' ? mine : (mine[0] ?? null) }),
              ),
            );
            jobs.push(async () =>
              refusedWrite(
                `DELETE ${url}`,
                await send('write', 'DELETE', url, { data: rel.kind === 'many' ? [] : null }),
              ),
            );
          }
          if (rel.kind !== 'many') continue;
          for (const mineOwner of own.filter((x) => model.full(v, def.type, x.id)).slice(0, 2)) {
            const theirs = foreign(rel.target).map((x) => ({ type: rel.target, id: String(x.id) }));
            if (theirs.length === 0) continue;
            const url = `${itemUrl(def, mineOwner.id)}/relationships/${field}`;
            jobs.push(async () =>
              refusedWrite(`POST ${url} (others' rows)`, await send('write', 'POST', url, { data: theirs })),
            );
          }
        }
      }
      // A form 4 is shared, but its terms are the transferring handler's: the receiving one may not edit them.
      for (const f4 of model
        .rowsOf('node--apc_form_4')
        .filter((r) => r.receiving_handler_id === v.handlerId && r.form_activity === 'active')) {
        const id = String(f4.id);
        jobs.push(async () => {
          const r = await send('write', 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
            data: { type: 'node--apc_form_4', id, attributes: { field_first_transfer_month: '2027-01' } },
          });
          if (r.status !== 403) problems.push(`PATCH received form 4 ${id}: ${r.status}`);
        });
      }
      await parallel(jobs, 4, (job) => job());
      expect(problems).toEqual([]);
      expect(checksumDiff(before, await databaseChecksum(d.ctx.db, d.ctx.dialect))).toEqual({});
    });
  }

  it('tried at least as many cases as the registry asks for, and the data is as the demo left it', async () => {
    const floor = registryFloor(model);
    console.log(`[${target.dialect}] isolation: ${total()} cases, floor ${floor} from ${allResources.length} types`);
    expect(total()).toBeGreaterThan(floor);
    expect(checksumDiff(before, await databaseChecksum(d.ctx.db, d.ctx.dialect))).toEqual({});
  });
});
