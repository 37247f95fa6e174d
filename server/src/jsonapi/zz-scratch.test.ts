import { it } from 'vitest';
import { sql } from 'kysely';
import { demoApp } from '../test-support/demo.js';
import { api } from '../test-support/api.js';

it('scratch', async () => {
  const d = await demoApp({ dialect: 'sqlite', url: 'sqlite::memory:' });
  const tables = ['files','handlers','users','seasons','reporting_periods','reporting_forms_packages','apc_form_1','apc_form_2','apc_form_3','pecans_purchased_non_us','export_by_country','apc_form_4','apc_form_5','invoices','handler_packet_confirmations','monthly_position_reports','annual_position_reports','industry_analytics','handler_analytics','pecan_varieties','settings','oauth_clients'];
  for (const t of tables) { const r = await sql<{n:number}>`select count(*) as n from ${sql.table(t)}`.execute(d.ctx.db); console.log(t, r.rows[0].n); }
  console.log(JSON.stringify(await d.ctx.db.selectFrom('seasons').selectAll().execute()));
  console.log(JSON.stringify(await d.ctx.db.selectFrom('users').select(['id','name','handler_id','show_in_directory','mail','role']).execute()));
  console.log(JSON.stringify(await d.ctx.db.selectFrom('apc_form_4').select(['id','title','transferring_handler_id','receiving_handler_id','season_id','form_activity','form_status']).execute()));
  console.log(JSON.stringify(await d.ctx.db.selectFrom('handler_packet_confirmations').selectAll().execute()));
  console.log(JSON.stringify(await d.ctx.db.selectFrom('apc_form_5').select(['id','title','handler_id','season_id','form_status','amendment_number']).execute()));
  console.log(JSON.stringify(d.handlers));
  const r = await api(d.app, d.tokens.alice, 'GET', '/jsonapi/node/invoice?page[limit]=3&include=field_invoice_pdf');
  console.log(JSON.stringify(r.body, null, 1).slice(0, 4000));
  await d.close();
}, 60000);
