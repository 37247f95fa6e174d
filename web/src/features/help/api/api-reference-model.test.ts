import { describe, expect, it } from 'vitest';
import { apiReference } from './api-reference-model';

/**
 * The reference page's reading of an OpenAPI document shaped as the server writes it (server/src/jsonapi/openapi.ts).
 */
const document = {
  info: { title: 'Pecan Handler Portal JSON:API', version: '1.0.0' },
  paths: {
    '/jsonapi/node/invoice': { get: {} },
    '/jsonapi/node/invoice/{id}': { get: {} },
    '/jsonapi/node/apc_form_1': { get: {}, post: {} },
    '/jsonapi/node/apc_form_1/{id}': { get: {}, patch: {} },
  },
  components: {
    parameters: { page: { name: 'page', description: 'page[offset] and page[limit]' } },
    schemas: {
      Error: { type: 'object' },
      'node--invoice': {
        'x-jsonapi-type': 'node--invoice',
        'x-path': '/jsonapi/node/invoice',
        'x-default-sort': 'field_due_date',
        properties: {
          attributes: {
            properties: {
              field_amount_due: {
                type: 'string',
                pattern: '^-?\\d+\\.\\d{2}$',
                'x-unit': 'US dollars',
                readOnly: true,
                'x-filterable': true,
              },
              field_invoice_status: { type: 'string', enum: ['open', 'paid'], readOnly: true, 'x-filterable': true },
              field_paid_date: { type: ['string', 'null'], format: 'date', readOnly: true, 'x-filterable': true },
            },
          },
          relationships: {
            properties: { field_handler: { 'x-target': 'node--handler', 'x-cardinality': 'one', readOnly: true } },
          },
        },
      },
      'node--apc_form_1': {
        'x-jsonapi-type': 'node--apc_form_1',
        'x-path': '/jsonapi/node/apc_form_1',
        properties: {
          attributes: {
            properties: {
              field_receipts_by_variety: { type: 'array', 'x-unit': 'lb inshell', 'x-filterable': false },
              field_form_status: {
                enum: ['draft', 'certified', 'superseded', null],
                readOnly: true,
                'x-filterable': true,
                'x-visibility': 'restricted',
              },
            },
          },
          relationships: { properties: {} },
        },
      },
    },
  },
};

describe('apiReference', () => {
  it('reads types, methods, attributes with units and allowed values, relationships and parameters', () => {
    const r = apiReference(document);
    expect(r.types.map((t) => t.type)).toEqual(['node--apc_form_1', 'node--invoice']);
    const invoice = r.types[1];
    expect(invoice).toMatchObject({ path: '/jsonapi/node/invoice', methods: ['GET'], defaultSort: 'field_due_date' });
    expect(invoice.attributes[0]).toMatchObject({
      name: 'field_amount_due',
      kind: 'decimal (2 places)',
      unit: 'US dollars',
      writable: false,
      filterable: true,
    });
    expect(invoice.attributes[1].allowed).toEqual(['open', 'paid']);
    expect(invoice.attributes[2]).toMatchObject({ kind: 'string (date)', nullable: true });
    expect(invoice.relationships).toEqual([
      { name: 'field_handler', target: 'node--handler', many: false, writable: false, restricted: false },
    ]);
    const form = r.types[0];
    expect(form.methods).toEqual(['GET', 'POST', 'PATCH']);
    expect(form.attributes[0]).toMatchObject({ kind: 'list', filterable: false, writable: true, unit: 'lb inshell' });
    expect(form.attributes[1]).toMatchObject({
      allowed: ['draft', 'certified', 'superseded'],
      nullable: true,
      restricted: true,
    });
    expect(r.parameters).toEqual([{ name: 'page', description: 'page[offset] and page[limit]' }]);
  });

  it('gives an empty reference for a document without types', () => {
    expect(apiReference({}).types).toEqual([]);
  });
});
