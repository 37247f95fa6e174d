import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allResources } from '../resources/index.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { openApiDocument } from './openapi.js';
import { Registry } from './registry.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const registry = new Registry(allResources);
const document = openApiDocument(registry) as any;

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('keeps in step with the registry: every type, attribute, relationship and operation', () => {
    const schemas = document.components.schemas;
    expect(
      Object.keys(schemas)
        .filter((n) => n !== 'Error')
        .sort(),
    ).toEqual(allResources.map((d) => d.type).sort());
    for (const def of allResources) {
      const schema = schemas[def.type];
      const attributes = schema.properties.attributes.properties;
      expect(Object.keys(attributes).sort(), def.type).toEqual(
        [...Object.keys(def.attributes), ...(def.computedAttributes ?? [])].sort(),
      );
      expect(Object.keys(schema.properties.relationships.properties).sort(), def.type).toEqual(
        Object.keys(def.relationships).sort(),
      );
      for (const [name, a] of Object.entries(def.attributes)) {
        expect(attributes[name].readOnly === true, `${def.type}.${name}`).toBe(!a.writable);
        if (a.allowed)
          expect(
            attributes[name].enum.filter((v: unknown) => v !== null),
            `${def.type}.${name}`,
          ).toEqual(a.allowed);
        expect(attributes[name]['x-visibility'] === 'restricted', `${def.type}.${name}`).toBe(a.visibility === 'full');
      }
      const path = `/jsonapi/${def.entity}/${def.bundle}`;
      expect(Boolean(document.paths[path].post), `${def.type} POST`).toBe(Boolean(def.writes?.create));
      expect(Boolean(document.paths[`${path}/{id}`].patch), `${def.type} PATCH`).toBe(Boolean(def.writes?.update));
      expect(Boolean(document.paths[`${path}/{id}`].delete), `${def.type} DELETE`).toBe(Boolean(def.writes?.delete));
    }
  });

  it('gives units and allowed values', () => {
    const form1 = document.components.schemas['node--apc_form_1'].properties.attributes.properties;
    expect(form1.field_receipts_native['x-unit']).toBe('lb inshell');
    expect(form1.field_form_status.enum).toEqual(['draft', 'certified', 'superseded']);
    expect(form1.status).toMatchObject({ type: 'boolean', readOnly: true, 'x-filterable': true });
    const invoice = document.components.schemas['node--invoice'].properties.attributes.properties;
    expect(invoice.field_amount_due).toMatchObject({ type: 'string', 'x-unit': 'US dollars' });
  });
});

describeEachDatabase('GET /jsonapi/openapi.json', (target) => {
  let d: DemoApp;
  beforeAll(async () => {
    d = await demoApp(target);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('is served to a signed-in reader, the same for everyone, and holds no data', async () => {
    const get = (token?: string) =>
      d.app.inject({
        method: 'GET',
        url: '/jsonapi/openapi.json',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    expect((await get()).statusCode).toBe(401);
    const alice = await get(d.tokens.alice);
    expect(alice.statusCode).toBe(200);
    expect(alice.headers['content-type']).toMatch(/^application\/json/);
    expect(alice.json()).toEqual(document);
    expect((await get(d.tokens.staff)).body).toBe(alice.body);
    // Nothing of the database: no row's id, name, e-mail address or handler title.
    const users = await d.ctx.db.selectFrom('users').select(['id', 'name', 'mail']).execute();
    const handlers = await d.ctx.db.selectFrom('handlers').select(['id', 'title']).execute();
    for (const value of [...users.flatMap((u) => [u.id, u.mail]), ...handlers.flatMap((h) => [h.id, h.title])]) {
      if (value) expect(alice.body).not.toContain(String(value));
    }
    expect(alice.body).not.toMatch(/handler_id|pass_hash|select |exists \(/i);
  });
});
