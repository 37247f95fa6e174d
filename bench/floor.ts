/**
 * The floor: what the same reads cost with nothing but one hand-written SQL statement and JSON.stringify, in a bare
 * Fastify server. The benchmark starts it in a process of its own, as it starts the portal (FLOOR_URL, FLOOR_SCHEMA,
 * FLOOR_PORT; it says it listens, and takes documents, by IPC), against the same database as the portal under test.
 * Not a thread of the load generator's process, which runs with a heap setting of its own (bench/run.ts,
 * LOAD_GENERATOR_ENV) that the portal does not get: the floor runs as the portal runs.
 *
 * Each statement checks the bearer token the way the portal does (token, family, active user, in the same
 * statement) and returns the same rows the portal's document holds (main rows joined with their includes), flat.
 * Column lists are read from the schema once at start-up; file contents are never selected.
 */
import { createHash } from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.FLOOR_URL ?? '';
const schema = process.env.FLOOR_SCHEMA || undefined;
const port = Number(process.env.FLOOR_PORT);
if (!url || !port || !process.send)
  throw new Error('bench/floor.ts is started by bench/run.ts (FLOOR_URL, FLOOR_PORT, an IPC channel)');
const isPg = url.startsWith('postgres');
const T = isPg ? 'true' : '1';

type Run = (sqlText: string, params: unknown[]) => Promise<unknown[]>;
let run: Run;
let columnsOf: (table: string) => Promise<string[]>;
/** A null of a column's type: PostgreSQL types an untyped null of a UNION branch as text. */
let typedNull: (table: string, column: string) => Promise<string> = async () => 'null';
if (isPg) {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  run = async (text, params) => {
    let n = 0;
    return (
      await pool.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows;
  };
  columnsOf = async (table) =>
    (
      await pool.query(
        'select column_name from information_schema.columns where table_name = $1 and table_schema = current_schema() order by ordinal_position',
        [table],
      )
    ).rows.map((r) => r.column_name as string);
  typedNull = async (table, column) => {
    const { rows } = await pool.query(
      'select udt_name from information_schema.columns where table_name = $1 and column_name = $2 and table_schema = current_schema()',
      [table, column],
    );
    return `cast(null as ${rows[0].udt_name as string})`;
  };
} else {
  const db = new SQLite(url.slice('sqlite:'.length), { readonly: true });
  db.pragma('busy_timeout = 5000');
  const statements = new Map<string, SQLite.Statement>();
  run = async (text, params) => {
    let s = statements.get(text);
    if (!s) {
      s = db.prepare(text);
      statements.set(text, s);
    }
    return s.all(...params);
  };
  columnsOf = async (table) =>
    (db.prepare(`select name from pragma_table_info('${table}')`).all() as Array<{ name: string }>).map((r) => r.name);
}

const HIDDEN = new Set(['content', 'pass_hash']);
const shownColumns = async (table: string) => (await columnsOf(table)).filter((c) => !HIDDEN.has(c));

async function cols(alias: string, table: string): Promise<string> {
  return (await shownColumns(table)).map((c) => `${alias}.${c} as "${alias}.${c}"`).join(', ');
}

/** The same columns as cols() names them, all null: a UNION ALL branch that reads another table. */
async function nullCols(alias: string, table: string): Promise<string> {
  return (
    await Promise.all((await shownColumns(table)).map(async (c) => `${await typedNull(table, c)} as "${alias}.${c}"`))
  ).join(', ');
}

const viewer = `with v as (select u.id as user_id, u.handler_id from oauth_access_tokens a
  join oauth_token_families f on f.id = a.family_id join users u on u.id = f.user_id
  where a.token_hash = ? and a.expires_at > ? and f.expires_at > ? and f.revoked_at is null and u.status = 'active')`;

async function queries(): Promise<Record<string, string>> {
  const [k, p, f1, f2, f3, d1, d2, d3] = await Promise.all([
    cols('k', 'reporting_forms_packages'),
    cols('p', 'reporting_periods'),
    cols('f1', 'apc_form_1'),
    cols('f2', 'apc_form_2'),
    cols('f3', 'apc_form_3'),
    cols('d1', 'files'),
    cols('d2', 'files'),
    cols('d3', 'files'),
  ]);
  const [i, ip, id, fp] = await Promise.all([
    cols('i', 'invoices'),
    cols('ip', 'reporting_periods'),
    cols('id', 'files'),
    cols('fp', 'files'),
  ]);
  const [hNull, haNull, pcNull] = await Promise.all([
    nullCols('h', 'handlers'),
    nullCols('ha', 'handler_analytics'),
    nullCols('pc', 'handler_packet_confirmations'),
  ]);
  const [h, ha, pc, s, u, ia, ix, sn] = await Promise.all([
    cols('h', 'handlers'),
    cols('ha', 'handler_analytics'),
    cols('pc', 'handler_packet_confirmations'),
    cols('s', 'seasons'),
    cols('u', 'users'),
    cols('ia', 'industry_analytics'),
    cols('ix', 'files'),
    cols('sn', 'seasons'),
  ]);
  const forms = `left join apc_form_1 f1 on f1.package_id = k.id left join apc_form_2 f2 on f2.package_id = k.id left join apc_form_3 f3 on f3.package_id = k.id`;
  return {
    packagesSeason: `${viewer} select ${k}, ${p}, ${f1}, ${f2}, ${f3}, ${d1}, ${d2}, ${d3}
      from reporting_forms_packages k join v on k.handler_id = v.handler_id join reporting_periods p on p.id = k.period_id ${forms}
      left join files d1 on d1.id = f1.form_1_pdf_id left join files d2 on d2.id = f2.form_2_pdf_id left join files d3 on d3.id = f3.form_3_pdf_id
      where k.handler_id = ? and p.season_id = ? order by p.due_date desc, k.id, f1.amendment_number, f2.amendment_number, f3.amendment_number`,
    // As the form page's 'Next package' asks (web/src/lib/portal/package-params.ts, nextPackageParams): the package
    // of the latest period due before a date, with its forms' ids.
    nextPackage: `${viewer} select k.id as "k.id", f1.id as "f1.id", f2.id as "f2.id", f3.id as "f3.id"
      from (select k.id from reporting_forms_packages k join v on k.handler_id = v.handler_id join reporting_periods p on p.id = k.period_id
        where k.handler_id = ? and p.due_date < ? order by p.due_date desc limit 1) k ${forms}
      order by f1.amendment_number, f2.amendment_number, f3.amendment_number`,
    // Of form 1 only its PDF, as the invoices page asks (fields[node--apc_form_1]=field_form_1_pdf).
    invoices: `${viewer} select ${i}, ${ip}, ${id}, f1.id as "f1.id", f1.form_1_pdf_id as "f1.form_1_pdf_id", ${fp}
      from invoices i join v on i.handler_id = v.handler_id left join reporting_periods ip on ip.id = i.period_id left join files id on id.id = i.invoice_pdf_id
      left join apc_form_1 f1 on f1.id = i.form_1_id left join files fp on fp.id = f1.form_1_pdf_id
      where i.handler_id = ? order by i.due_date desc, i.id limit 201`,
    seasons: `${viewer} select ${s} from seasons s where exists (select 1 from v) order by s.season_start_date desc, s.id`,
    // The handler, its analytics and its packet confirmations (one of each a season) as three branches of one
    // statement: joined, they multiplied (10 seasons: 100 rows for 21 resources).
    handler: `${viewer} select ${h}, ${haNull}, ${pcNull} from handlers h join v on v.handler_id = h.id where h.id = ?
      union all select ${hNull}, ${ha}, ${pcNull} from handler_analytics ha join v on v.handler_id = ha.handler_id where ha.handler_id = ?
      union all select ${hNull}, ${haNull}, ${pc} from handler_packet_confirmations pc join v on v.handler_id = pc.handler_id where pc.handler_id = ?`,
    handlerDirectory: `${viewer} select ${h} from handlers h where exists (select 1 from v) and h.show_in_handler_directory = ${T} order by h.title, h.id limit 51`,
    userDirectory: `${viewer} select ${u} from users u where exists (select 1 from v) and u.handler_id = ? and u.show_in_directory = ${T} order by u.last_name, u.id limit 501`,
    me: `${viewer} select ${u} from users u where exists (select 1 from v) and u.name = ?`,
    // As the analytics page asks (analytics-params.ts): with the spreadsheet and the season, 100 a page.
    industryAnalytics: `${viewer} select ${ia}, ${ix}, ${sn} from industry_analytics ia left join files ix on ix.id = ia.industry_analytics_xlsx_id
      left join seasons sn on sn.id = ia.season_id where exists (select 1 from v) order by ia.id limit 101`,
  };
}

const sqlOf = await queries();
const app = Fastify({ logger: false });
const token = (auth: string | undefined) =>
  createHash('sha256')
    .update((auth ?? '').replace(/^Bearer /i, ''))
    .digest('hex');

/** The floor's one statement for a request: its rows, or null when the token or the name is unknown. */
async function floorRows(
  name: string,
  q: Record<string, string>,
  authorization: string | undefined,
): Promise<unknown[] | null> {
  const text = sqlOf[name];
  if (!text) return null;
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const params: unknown[] = [token(authorization), now, now];
  if (name === 'packagesSeason') params.push(q.handler, q.season);
  else if (name === 'nextPackage') params.push(q.handler, q.before);
  else if (name === 'handler') params.push(q.handler, q.handler, q.handler);
  else if (['invoices', 'userDirectory'].includes(name)) params.push(q.handler);
  else if (name === 'me') params.push(q.name);
  const rows = await run(text, params);
  return rows.length ? rows : null;
}

app.get('/floor/:name', async (request, reply) => {
  const rows = await floorRows(
    (request.params as { name: string }).name,
    request.query as Record<string, string>,
    request.headers.authorization,
  );
  if (!rows) return reply.code(404).send();
  reply.header('content-type', 'application/json');
  return JSON.stringify({ data: rows });
});

/**
 * The same floor writing the engine's own document (Drupal's, with its members and links) for that request, as
 * the benchmark read it from the portal beforehand: the statement runs, its rows are dropped, and the document is
 * stringified. A floor that built the document from its rows would do more than this one, so an engine's ratio to
 * it is a lower bound. It tells what the document's format costs apart from what the engine does to make it.
 */
const documents = new Map<string, unknown>();
app.get('/floor-document/:name', async (request, reply) => {
  const rows = await floorRows(
    (request.params as { name: string }).name,
    request.query as Record<string, string>,
    request.headers.authorization,
  );
  const doc = documents.get(request.url.replace('/floor-document/', '/floor/'));
  if (!rows || doc === undefined) return reply.code(404).send();
  reply.header('content-type', 'application/vnd.api+json');
  return JSON.stringify(doc);
});

await app.listen({ port, host: '127.0.0.1' });
process.send({ listening: port });
process.on('message', (m: { documents: Record<string, string> }) => {
  for (const [path, text] of Object.entries(m.documents)) documents.set(path, JSON.parse(text));
  process.send!({ documents: documents.size });
});
// The benchmark stops it as it stops the portal.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
process.once('disconnect', () => void app.close().then(() => process.exit(0)));
