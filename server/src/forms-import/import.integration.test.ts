import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { libreOfficeFixture } from '../test-support/spreadsheets.js';

/**
 * Import of forms 1, 2 and 3 from a spreadsheet: the template, every refusal (nothing changed), the preview, and
 * Apply through the draft's own write path.
 */
type Inject = DemoApp['app'];

async function download(app: Inject, token: string, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: response.statusCode, headers: response.headers, content: response.rawPayload, text: response.body };
}

async function upload(app: Inject, token: string, url: string, content: Buffer | string) {
  const response = await app.inject({
    method: 'POST',
    url,
    payload: typeof content === 'string' ? Buffer.from(content) : content,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
  });
  return { status: response.statusCode, body: response.json() };
}

/** Fills a downloaded .xlsx template as a handler would: values by field name, then the list's rows. */
export async function fillXlsx(template: Buffer, values: Record<string, unknown>, rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Import')!;
  let last = 0;
  sheet.eachRow((row, r) => {
    last = r;
    const name = String(row.getCell(1).value ?? '');
    if (name in values) row.getCell(3).value = values[name] as ExcelJS.CellValue;
  });
  rows.forEach((cells, i) => {
    sheet.getRow(last + 1 + i).values = cells as ExcelJS.CellValue[];
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describeEachDatabase('form import from a spreadsheet', (target) => {
  let demo: DemoApp;
  let alice: string;
  let carol: string;
  let form1: string;
  let form2: string;
  let form3: string;
  let certified1: string;
  const base = (bundle: string, id: string) => `/api/forms/${bundle}/${id}/import`;
  const formAttributes = async (bundle: string, id: string) =>
    (await api(demo.app, alice, 'GET', `/jsonapi/node/${bundle}/${id}`)).body.data.attributes;

  beforeAll(async () => {
    demo = await demoApp(target);
    alice = demo.tokens.alice;
    carol = demo.tokens.carol;
    const packages = await api(
      demo.app,
      alice,
      'GET',
      '/jsonapi/node/reporting_forms_package?sort=-field_reporting_period.field_due_date&page[limit]=2',
    );
    const [current, previous] = packages.body.data;
    form1 = current.relationships.field_form_1.data.at(-1).id;
    form2 = current.relationships.field_form_2.data.at(-1).id;
    form3 = current.relationships.field_form_3.data.at(-1).id;
    certified1 = previous.relationships.field_form_1.data.at(-1).id;
  });
  afterAll(async () => {
    await demo?.close();
  });

  describe('templates', () => {
    it('gives an .xlsx with the data sheet and a hidden marker, and the same rows as .csv', async () => {
      const xlsx = await download(demo.app, alice, `${base('apc_form_1', form1)}/template.xlsx`);
      expect(xlsx.status).toBe(200);
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      expect(xlsx.headers['content-disposition']).toContain('form_1-2026-11-import.xlsx');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.content as unknown as ArrayBuffer);
      expect(workbook.worksheets.map((s) => [s.name, s.state])).toEqual([
        ['Import', 'visible'],
        ['portal', 'hidden'],
      ]);
      const csv = await download(demo.app, alice, `${base('apc_form_3', form3)}/template.csv`);
      expect(csv.status).toBe(200);
      const lines = csv.text.split('\r\n');
      expect(lines[0]).toMatch(/^pecan-portal-import,1,apc_form_3,2026-11,/);
      expect(lines[1]).toBe('field,description,value,unit');
      expect(lines).toContain('country,inshell_lb,shelled_lb,substandard_lb');
    });

    it("never gives another handler's template", async () => {
      expect(
        (await download(demo.app, carol, `${base('apc_form_1', form1)}/template.xlsx`)).status,
      ).toBeGreaterThanOrEqual(403);
      expect((await download(demo.app, carol, `${base('apc_form_1', form1)}/template.xlsx`)).status).toBeLessThan(405);
      expect((await download(demo.app, alice, `${base('apc_form_5', form1)}/template.xlsx`)).status).toBe(404);
    });
  });

  describe('form 1 from .xlsx', () => {
    let template: Buffer;
    beforeAll(async () => {
      template = (await download(demo.app, alice, `${base('apc_form_1', form1)}/template.xlsx`)).content;
    });

    it('names each bad cell by row and column and saves nothing', async () => {
      const before = await formAttributes('apc_form_1', form1);
      const file = await fillXlsx(
        template,
        { receipts_native: -5, shipments_inshell: 'many', date_completed: '2026-13-01' },
        [
          ['Desirable', 1000],
          ['desirable', 20],
        ],
      );
      const preview = await upload(demo.app, alice, `${base('apc_form_1', form1)}?name=f.xlsx`, file);
      expect(preview.status).toBe(200);
      expect(preview.body.data.valid).toBe(false);
      const errors = preview.body.data.errors.map(
        (e: { row: number; column: string; code: string }) => `${e.column}${e.row}:${e.code}`,
      );
      expect(errors).toEqual(expect.arrayContaining(['C3:date', 'C5:pounds', 'C7:pounds', 'A21:duplicate_variety']));
      const apply = await upload(demo.app, alice, `${base('apc_form_1', form1)}/apply?name=f.xlsx`, file);
      expect(apply.status).toBe(422);
      expect(apply.body.errors[0].meta).toMatchObject({
        row: expect.any(Number),
        column: expect.any(String),
        code: expect.any(String),
      });
      expect(await formAttributes('apc_form_1', form1)).toEqual(before);
    });

    it('previews the figures and totals beside the draft, then Apply saves the draft (never certifies)', async () => {
      const file = await fillXlsx(
        template,
        {
          receipts_native: 3000,
          receipts_substandard: 200,
          shipments_inshell: '12,000',
          no_change_flag: 'no',
          date_completed: new Date(Date.UTC(2026, 10, 20)),
        },
        [
          ['Desirable', 10000],
          ['Stuart', 5500],
        ],
      );
      const preview = await upload(demo.app, alice, `${base('apc_form_1', form1)}?name=f.xlsx`, file);
      expect(preview.status).toBe(200);
      expect(preview.body.data.valid, JSON.stringify(preview.body.data.errors)).toBe(true);
      const totals = Object.fromEntries(
        preview.body.data.totals.map((t: { field: string; imported: number }) => [t.field, t.imported]),
      );
      expect(totals).toEqual({ receipts_improved: 15500, receipts_total: 18700 });
      const before = await formAttributes('apc_form_1', form1);
      expect(before.field_receipts_native).not.toBe(3000);
      const apply = await upload(
        demo.app,
        alice,
        `${base('apc_form_1', form1)}/apply?name=f.xlsx&changed=${encodeURIComponent(preview.body.data.changed)}`,
        file,
      );
      expect(apply.status, JSON.stringify(apply.body)).toBe(200);
      const after = await formAttributes('apc_form_1', form1);
      expect(after).toMatchObject({
        field_receipts_native: 3000,
        field_receipts_substandard: 200,
        field_shipments_inshell: 12000,
        field_date_completed: '2026-11-20',
        field_receipts_improved: 15500,
        field_receipts_total: 18700,
        field_form_status: 'draft',
        field_certified: false,
      });
      expect(after.field_receipts_by_variety).toEqual([
        { variety: 'Desirable', pounds: 10000 },
        { variety: 'Stuart', pounds: 5500 },
      ]);
    });

    it('loses with 409 when the draft changed after the preview', async () => {
      const file = await fillXlsx(template, { receipts_native: 1 }, []);
      const apply = await upload(
        demo.app,
        alice,
        `${base('apc_form_1', form1)}/apply?name=f.xlsx&changed=2020-01-01T00:00:00Z`,
        file,
      );
      expect(apply.status).toBe(409);
    });

    it('imports a file written by LibreOffice', async () => {
      const file = await fillXlsx(await libreOfficeFixture(demo.app, alice, form1), { receipts_native: 4242 }, [
        ['Pawnee', 77],
      ]);
      const preview = await upload(
        demo.app,
        alice,
        `${base('apc_form_1', form1)}?name=lo.xlsx`,
        await libreOfficeFixture(demo.app, alice, form1),
      );
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.data.valid, JSON.stringify(preview.body.data.errors)).toBe(true);
      const figures = Object.fromEntries(
        preview.body.data.fields.map((f: { field: string; imported: unknown }) => [f.field, f.imported]),
      );
      expect(figures).toMatchObject({ receipts_native: 1234, shipments_inshell: 5000, date_completed: '2026-11-21' });
      expect(preview.body.data.list.imported).toEqual([{ variety: 'Desirable', pounds: 800 }]);
      expect((await upload(demo.app, alice, `${base('apc_form_1', form1)}?name=lo2.xlsx`, file)).body.data.valid).toBe(
        true,
      );
    });
  });

  describe('forms 2 and 3 from .csv', () => {
    it('replaces form 3 rows and recomputes its totals', async () => {
      const template = (await download(demo.app, alice, `${base('apc_form_3', form3)}/template.csv`)).text;
      const file = `${template}MX,100,"1,200",0\r\nCA,50,0,5\r\n`;
      const preview = await upload(demo.app, alice, `${base('apc_form_3', form3)}?name=exports.csv`, file);
      expect(preview.body.data.valid, JSON.stringify(preview.body.data.errors)).toBe(true);
      const apply = await upload(demo.app, alice, `${base('apc_form_3', form3)}/apply?name=exports.csv`, file);
      expect(apply.status, JSON.stringify(apply.body)).toBe(200);
      expect(await formAttributes('apc_form_3', form3)).toMatchObject({
        field_total_inshell_lb: 150,
        field_total_shelled_lb: 1200,
        field_total_substandard_lb: 5,
      });
      const rows = await api(demo.app, alice, 'GET', `/jsonapi/node/apc_form_3/${form3}/field_exports_by_country`);
      expect(rows.body.data.map((r: { attributes: { field_country: string } }) => r.attributes.field_country)).toEqual([
        'MX',
        'CA',
      ]);
      // Again with other rows: replaced, not added to.
      const again = await upload(
        demo.app,
        alice,
        `${base('apc_form_3', form3)}/apply?name=exports.csv`,
        `${template}BR,7,0,0\r\n`,
      );
      expect(again.status).toBe(200);
      expect(await formAttributes('apc_form_3', form3)).toMatchObject({
        field_total_inshell_lb: 7,
        field_total_shelled_lb: 0,
      });
    });

    it('refuses a purchase from the United States at its cell', async () => {
      const template = (await download(demo.app, alice, `${base('apc_form_2', form2)}/template.csv`)).text;
      const preview = await upload(
        demo.app,
        alice,
        `${base('apc_form_2', form2)}?name=p.csv`,
        `${template}2026-11-03,US,10,0,\r\n2026-11-04,,10,0,\r\n`,
      );
      expect(preview.status).toBe(200);
      const errors = preview.body.data.errors.map(
        (e: { row: number; column: string; code: string }) => `${e.column}${e.row}:${e.code}`,
      );
      expect(errors).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^B\d+:country_not_us$/),
          expect.stringMatching(/^B\d+:required$/),
        ]),
      );
    });
  });

  describe('refusals: a clear error and nothing changed', () => {
    let xlsx1: Buffer;
    beforeAll(async () => {
      xlsx1 = (await download(demo.app, alice, `${base('apc_form_1', form1)}/template.xlsx`)).content;
    });
    const refused = async (bundle: string, id: string, name: string, content: Buffer | string) => {
      const before = await formAttributes(bundle, id);
      const preview = await upload(demo.app, alice, `${base(bundle, id)}?name=${name}`, content);
      const apply = await upload(demo.app, alice, `${base(bundle, id)}/apply?name=${name}`, content);
      expect(apply.status).toBe(preview.status);
      expect(await formAttributes(bundle, id)).toEqual(before);
      return {
        status: preview.status,
        code: preview.body.errors?.[0]?.meta?.code,
        detail: preview.body.errors?.[0]?.detail,
      };
    };

    it('a template of another form or month', async () => {
      expect(await refused('apc_form_3', form3, 'f.xlsx', xlsx1)).toMatchObject({ status: 422, code: 'wrong_form' });
      const csv = (await download(demo.app, alice, `${base('apc_form_1', certified1)}/template.csv`)).text;
      expect(await refused('apc_form_1', form1, 'f.csv', csv)).toMatchObject({ status: 422, code: 'wrong_month' });
      expect(await refused('apc_form_1', form1, 'f.csv', 'a,b,c\r\n1,2,3\r\n')).toMatchObject({
        status: 422,
        code: 'wrong_template',
      });
    });

    it('extra sheets, formulas and macros', async () => {
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx1 as unknown as ArrayBuffer);
      workbook.addWorksheet('Notes');
      expect(
        await refused('apc_form_1', form1, 'f.xlsx', Buffer.from(await workbook.xlsx.writeBuffer())),
      ).toMatchObject({ status: 422, code: 'extra_sheets' });
      const withFormula = new ExcelJS.Workbook();
      await withFormula.xlsx.load(xlsx1 as unknown as ArrayBuffer);
      withFormula.getWorksheet('Import')!.getCell('C5').value = { formula: '1+1', result: 2 };
      expect(
        await refused('apc_form_1', form1, 'f.xlsx', Buffer.from(await withFormula.xlsx.writeBuffer())),
      ).toMatchObject({ status: 422, code: 'formula' });
      const csv = (await download(demo.app, alice, `${base('apc_form_1', form1)}/template.csv`)).text.replace(
        'receipts_native,Native / seedling receipts this month (lb inshell),',
        'receipts_native,x,=1+1',
      );
      expect(await refused('apc_form_1', form1, 'f.csv', csv)).toMatchObject({ status: 422, code: 'formula' });
      const zip = await JSZip.loadAsync(xlsx1);
      zip.file('xl/vbaProject.bin', Buffer.from('macro'));
      const macro = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
      expect(await refused('apc_form_1', form1, 'f.xlsx', macro)).toMatchObject({ status: 422, code: 'macros' });
      expect(await refused('apc_form_1', form1, 'f.xlsm', xlsx1)).toMatchObject({ status: 422, code: 'macros' });
    });

    it('a file too large, a zip bomb, a broken file, another type', async () => {
      const large = await refused('apc_form_1', form1, 'f.csv', Buffer.alloc(2 * 1024 * 1024 + 10, 0x41));
      expect(large).toMatchObject({ status: 413, code: 'too_large_upload' });
      const bomb = await JSZip.loadAsync(xlsx1);
      bomb.file('xl/media/zeros.bin', Buffer.alloc(40 * 1024 * 1024));
      const bombFile = await bomb.generateAsync({
        type: 'nodebuffer',
        compression: 'DEFLATE',
        compressionOptions: { level: 9 },
      });
      expect(bombFile.length).toBeLessThan(2 * 1024 * 1024);
      expect(await refused('apc_form_1', form1, 'f.xlsx', bombFile)).toMatchObject({ status: 422, code: 'too_large' });
      expect(await refused('apc_form_1', form1, 'f.xlsx', xlsx1.subarray(0, 3000))).toMatchObject({
        status: 422,
        code: 'broken',
      });
      expect(
        await refused(
          'apc_form_1',
          form1,
          'f.xlsx',
          Buffer.concat([Buffer.from('PK\x03\x04'), deflateRawSync(Buffer.from('junk'))]),
        ),
      ).toMatchObject({ status: 422, code: 'broken' });
      expect(await refused('apc_form_1', form1, 'f.txt', 'hello')).toMatchObject({ status: 415, code: 'file_type' });
    });

    it('a certified form: previewed, never overwritten', async () => {
      const file = await fillXlsx(
        (await download(demo.app, alice, `${base('apc_form_1', certified1)}/template.xlsx`)).content,
        { receipts_native: 1 },
        [],
      );
      const before = await formAttributes('apc_form_1', certified1);
      const preview = await upload(demo.app, alice, `${base('apc_form_1', certified1)}?name=f.xlsx`, file);
      expect(preview.status).toBe(200);
      expect(preview.body.data.blocked.code).toBe('certified');
      const apply = await upload(demo.app, alice, `${base('apc_form_1', certified1)}/apply?name=f.xlsx`, file);
      expect(apply.status).toBe(409);
      expect(apply.body.errors[0].meta.code).toBe('certified');
      expect(await formAttributes('apc_form_1', certified1)).toEqual(before);
    });

    it("another handler's form", async () => {
      const file = await fillXlsx(xlsx1, { receipts_native: 1 }, []);
      const before = await formAttributes('apc_form_1', form1);
      const apply = await upload(demo.app, carol, `${base('apc_form_1', form1)}/apply?name=f.xlsx`, file);
      expect([403, 404]).toContain(apply.status);
      expect(await formAttributes('apc_form_1', form1)).toEqual(before);
    });
  });
});
