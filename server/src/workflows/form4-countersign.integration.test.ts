import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import type { DemoApp } from '../test-support/demo.js';
import { demoSeason, fileForm4ToDave } from '../test-support/filings-fixture.js';
import { pdfText as textOf } from '../test-support/pdf.js';

/**
 * The receiving handler's countersignature of a form 4: the certification statement confirmed, a name and a title,
 * all three required (422 naming each missing one, nothing changed), stored with the server's time and printed on
 * the agreement's PDF, which said before that it awaited the countersignature.
 */
describeEachDatabase('form 4 countersignature', (target) => {
  let demo: DemoApp;
  let id: string;
  beforeAll(async () => {
    const season = await demoSeason(target);
    demo = season.demo;
    const filed = await fileForm4ToDave(season, { name: 'Carol Jensen', title: 'Owner' });
    expect(filed.status, JSON.stringify(filed.body)).toBe(201);
    id = filed.body.data.id;
  });
  afterAll(async () => {
    await demo?.close();
  });

  const read = async () => (await api(demo.app, demo.tokens.dave, 'GET', `/jsonapi/node/apc_form_4/${id}`)).body.data;
  const pdf = async (token: string) => {
    const fileId = (await read()).relationships.field_form_4_pdf.data.id as string;
    const file = await api(demo.app, token, 'GET', `/jsonapi/file/file/${fileId}`);
    const url = new URL(file.body.data.attributes.uri.url as string);
    const download = await demo.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(download.statusCode).toBe(200);
    return textOf(download.rawPayload);
  };
  const countersign = (attributes: Record<string, unknown>) =>
    api(demo.app, demo.tokens.dave, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: { type: 'node--apc_form_4', id, attributes },
    });
  const pointers = (r: { body: { errors?: Array<{ source?: { pointer?: string } }> } }) =>
    (r.body.errors ?? []).map((e) => e.source?.pointer).sort();

  it('the certified agreement’s PDF says it awaits the countersignature', async () => {
    const text = await pdf(demo.tokens.dave);
    expect(text).toContain('Countersignature of the receiving handler');
    expect(text).toContain('Awaiting the countersignature of the receiving handler.');
    expect(text).not.toContain('COUNTERSIGNED BY');
  });

  it('refuses a countersignature without the statement, the name or the title, naming each, and changes nothing', async () => {
    const nameOnly = await countersign({ field_receiving_certification_name: 'Dave Okafor' });
    expect(nameOnly.status).toBe(422);
    expect(pointers(nameOnly)).toEqual([
      '/data/attributes/field_receiving_certification_title',
      '/data/attributes/field_receiving_certified',
    ]);
    const blank = await countersign({
      field_receiving_certified: false,
      field_receiving_certification_name: '  ',
      field_receiving_certification_title: '',
    });
    expect(blank.status).toBe(422);
    expect(pointers(blank)).toEqual([
      '/data/attributes/field_receiving_certification_name',
      '/data/attributes/field_receiving_certification_title',
      '/data/attributes/field_receiving_certified',
    ]);
    const now = await read();
    expect(now.attributes.field_receiving_certification_datetime).toBeNull();
    expect(now.attributes.field_receiving_certified).toBe(false);
  });

  it('the sender cannot countersign its own agreement', async () => {
    const r = await api(demo.app, demo.tokens.carol, 'PATCH', `/jsonapi/node/apc_form_4/${id}`, {
      data: {
        type: 'node--apc_form_4',
        id,
        attributes: {
          field_receiving_certified: true,
          field_receiving_certification_name: 'Carol Jensen',
          field_receiving_certification_title: 'Owner',
        },
      },
    });
    expect(r.status).toBe(403);
  });

  it('stores statement, name, title and time, and prints them on the PDF both parties read', async () => {
    const signed = await countersign({
      field_receiving_certified: true,
      field_receiving_certification_name: ' Dave Okafor ',
      field_receiving_certification_title: 'Plant Manager',
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.data.attributes).toMatchObject({
      field_receiving_certified: true,
      field_receiving_certification_name: 'Dave Okafor',
      field_receiving_certification_title: 'Plant Manager',
      field_receiving_certification_datetime: '2026-11-22T12:00:00+00:00',
    });
    for (const token of [demo.tokens.dave, demo.tokens.carol]) {
      const text = await pdf(token);
      expect(text).toMatch(
        /COUNTERSIGNED BY Dave Okafor TITLE Plant Manager DATE AND TIME \(UTC\) Nov 22, 2026, 12:00 UTC/,
      );
      expect(text).not.toContain('Awaiting the countersignature');
    }
  });
});
