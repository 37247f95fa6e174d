import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import JSZip from 'jszip';
import type { FastifyInstance } from 'fastify';
import { api } from './api.js';

/**
 * A form 1 import template for November 2026, filled in and saved by LibreOffice Calc (`soffice --headless
 * --convert-to xlsx`), committed under server/test-support/ so that no test needs LibreOffice. Made by
 * server/test-support/make-libreoffice-fixture.ts. Its marker names a placeholder handler; the copy a test gets
 * names the handler of the form it is for, changed in the workbook's XML as LibreOffice wrote it (not rewritten by
 * exceljs).
 */
export const FIXTURE_HANDLER = '00000000-0000-4000-8000-000000000000';
const FIXTURE = fileURLToPath(new URL('../../test-support/form-1-2026-11-libreoffice.xlsx', import.meta.url));

export async function libreOfficeFixture(app: FastifyInstance, token: string, formId: string): Promise<Buffer> {
  const form = await api(app, token, 'GET', `/jsonapi/node/apc_form_1/${formId}`);
  const handlerId = String(form.body.data.relationships.field_handler.data.id);
  const zip = await JSZip.loadAsync(await readFile(FIXTURE));
  for (const name of Object.keys(zip.files).filter((n) => n.endsWith('.xml'))) {
    const text = await zip.file(name)!.async('string');
    if (text.includes(FIXTURE_HANDLER)) zip.file(name, text.replaceAll(FIXTURE_HANDLER, handlerId));
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
