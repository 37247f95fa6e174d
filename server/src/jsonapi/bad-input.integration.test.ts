import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../test-support/api.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { demoApp, type DemoApp } from '../test-support/demo.js';
import { checksum } from '../test-support/jsonapi-fixtures.js';

/**
 * Bad input of every kind answers the contract's 4xx JSON:API error document, never a 500, and changes nothing:
 * a checksum of every table (row counts and max(changed)) is the same before and after.
 */
interface Case {
  name: string;
  method?: string;
  url: string | ((ids: Ids) => string);
  body?: unknown | ((ids: Ids) => unknown);
  /** A raw payload and its content type, for bodies that are not JSON:API documents. */
  raw?: { payload: string | Buffer | ((ids: Ids) => string); contentType: string };
  token?: 'alice' | 'staff' | null | 'bogus';
  status: number;
  parameter?: string;
  pointer?: string | string[];
}
interface Ids {
  draft1: string;
  draft1Changed: string;
  certified1: string;
  season: string;
  handler: string;
  period: string;
  pkg: string;
}

const cond = (key: string, parts: Record<string, string>) =>
  Object.entries(parts)
    .map(([k, v]) => `filter[${key}][condition][${k}]=${encodeURIComponent(v)}`)
    .join('&');
const form1 = (ids: Ids, attributes: Record<string, unknown>) => ({
  data: { type: 'node--apc_form_1', id: ids.draft1, attributes },
});

const CASES: Case[] = [
  // Unknown names in the query.
  {
    name: 'unknown filter field',
    url: '/jsonapi/node/season?filter[field_nope]=1',
    status: 400,
    parameter: 'filter[field_nope]',
  },
  {
    name: 'unknown field in a dotted filter path',
    url: '/jsonapi/node/reporting_forms_package?filter[field_reporting_period.field_nope.id]=1',
    status: 400,
    parameter: 'filter[field_reporting_period.field_nope.id]',
  },
  {
    name: 'filter path through an attribute',
    url: '/jsonapi/node/season?filter[title.id]=1',
    status: 400,
    parameter: 'filter[title.id]',
  },
  { name: 'unknown sort field', url: '/jsonapi/node/season?sort=-field_nope', status: 400, parameter: 'sort' },
  {
    name: 'sort through a to-many relationship',
    url: '/jsonapi/node/reporting_forms_package?sort=field_form_1.title',
    status: 400,
    parameter: 'sort',
  },
  {
    name: 'sort on a list field',
    url: '/jsonapi/node/apc_form_1?sort=field_receipts_by_variety',
    status: 400,
    parameter: 'sort',
  },
  {
    name: 'unknown field in fields[]',
    url: '/jsonapi/node/season?fields[node--season]=title,field_nope',
    status: 400,
    parameter: 'fields[node--season]',
  },
  {
    name: 'unknown type in fields[]',
    url: '/jsonapi/node/season?fields[node--nope]=title',
    status: 400,
    parameter: 'fields[node--nope]',
  },
  {
    name: 'unknown include',
    url: '/jsonapi/node/reporting_forms_package?include=field_nope',
    status: 400,
    parameter: 'include',
  },
  {
    name: 'unknown nested include',
    url: '/jsonapi/node/reporting_forms_package?include=field_form_1.field_nope',
    status: 400,
    parameter: 'include',
  },
  {
    name: 'include of an attribute',
    url: '/jsonapi/node/reporting_forms_package?include=title',
    status: 400,
    parameter: 'include',
  },
  {
    name: 'empty include entry',
    url: '/jsonapi/node/reporting_forms_package?include=field_form_1,',
    status: 400,
    parameter: 'include',
  },
  // Malformed filters.
  {
    name: 'condition without a path',
    url: `/jsonapi/node/season?${cond('a', { value: '2025-2026' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'unknown operator',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', operator: 'LIKE', value: 'x' })}`,
    status: 400,
    parameter: 'filter[a][condition][operator]',
  },
  {
    name: 'BETWEEN with one value',
    url: `/jsonapi/node/season?${cond('a', { path: 'field_season_start_date', operator: 'BETWEEN', 'value][': '2025-01-01' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'IN without a value',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', operator: 'IN' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'IS NULL with a value',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', operator: 'IS NULL', value: 'x' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: '= with two values',
    url: '/jsonapi/node/season?filter[a][condition][path]=title&filter[a][condition][value][]=x&filter[a][condition][value][]=y',
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'group cycle',
    url: '/jsonapi/node/season?filter[g][group][conjunction]=OR&filter[g][group][memberOf]=h&filter[h][group][conjunction]=OR&filter[h][group][memberOf]=g',
    status: 400,
  },
  {
    name: 'group member of itself',
    url: '/jsonapi/node/season?filter[g][group][conjunction]=OR&filter[g][group][memberOf]=g',
    status: 400,
    parameter: 'filter[g]',
  },
  {
    name: 'memberOf an unknown group',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', value: 'x', memberOf: 'nope' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'bad group conjunction',
    url: '/jsonapi/node/season?filter[g][group][conjunction]=XOR',
    status: 400,
    parameter: 'filter[g][group][conjunction]',
  },
  {
    name: 'unknown member of a condition',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', value: 'x', nope: '1' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  { name: 'bare filter', url: '/jsonapi/node/season?filter=title', status: 400, parameter: 'filter' },
  {
    name: 'boolean filter value that is not one',
    url: '/jsonapi/node/season?filter[field_current_season]=maybe',
    status: 400,
    parameter: 'filter[field_current_season]',
  },
  {
    name: 'text in an integer filter',
    url: '/jsonapi/node/apc_form_1?filter[field_receipts_native]=lots',
    status: 400,
    parameter: 'filter[field_receipts_native]',
  },
  {
    name: 'bad money filter',
    url: '/jsonapi/node/invoice?filter[field_amount_due]=12.345',
    status: 400,
    parameter: 'filter[field_amount_due]',
  },
  // Found by the fuzzer on PostgreSQL: a number past 2^63 reached the database and came back as a 500.
  {
    name: 'integer filter beyond any column',
    url: '/jsonapi/node/reporting_forms_package?filter[field_form_1.field_receipts_total]=9223372036854775296',
    status: 400,
    parameter: 'filter[field_form_1.field_receipts_total]',
  },
  { name: 'NUL in an item id', url: '/jsonapi/node/season/%00', status: 404 },
  {
    name: 'NUL in a filter value',
    url: '/jsonapi/node/season?filter[title]=a%00b',
    status: 400,
    parameter: 'filter[title]',
  },
  {
    name: 'money filter beyond any column',
    url: '/jsonapi/node/invoice?filter[field_amount_due]=99999999999999999999.00',
    status: 400,
    parameter: 'filter[field_amount_due]',
  },
  {
    name: 'CONTAINS on a number',
    url: `/jsonapi/node/apc_form_1?${cond('a', { path: 'field_receipts_native', operator: 'CONTAINS', value: '1' })}`,
    status: 400,
    parameter: 'filter[a]',
  },
  {
    name: 'filter on a list field',
    url: '/jsonapi/node/apc_form_1?filter[field_receipts_by_variety]=x',
    status: 400,
    parameter: 'filter[field_receipts_by_variety]',
  },
  // Names that Object.prototype has, anywhere a field, type or group is named (issue 32): a 400, never a 500 or a
  // filter silently dropped.
  {
    name: '__proto__ as a filter',
    url: '/jsonapi/node/season?filter[__proto__][value]=x',
    status: 400,
    parameter: 'filter[__proto__][value]',
  },
  {
    name: 'constructor as a filter',
    url: '/jsonapi/node/season?filter[constructor]=x',
    status: 400,
    parameter: 'filter[constructor]',
  },
  {
    name: 'toString as a filter path',
    url: `/jsonapi/node/season?${cond('a', { path: 'toString', value: 'x' })}`,
    status: 400,
    parameter: 'filter[a][condition][path]',
  },
  {
    name: 'constructor at the end of a dotted filter path',
    url: `/jsonapi/node/apc_form_1?${cond('a', { path: 'field_handler.constructor', value: 'x' })}`,
    status: 400,
    parameter: 'filter[a][condition][path]',
  },
  {
    name: 'hasOwnProperty inside a dotted filter key',
    url: '/jsonapi/node/apc_form_1?filter[field_handler.hasOwnProperty.title]=x',
    status: 400,
    parameter: 'filter[field_handler.hasOwnProperty.title]',
  },
  {
    name: '__proto__ as a group',
    url: '/jsonapi/node/season?filter[__proto__][group][conjunction]=OR',
    status: 400,
    parameter: 'filter[__proto__][group][conjunction]',
  },
  { name: 'constructor as a sort', url: '/jsonapi/node/season?sort=-constructor', status: 400, parameter: 'sort' },
  {
    name: '__proto__ in a sort path',
    url: '/jsonapi/node/apc_form_1?sort=field_handler.__proto__',
    status: 400,
    parameter: 'sort',
  },
  {
    name: 'toString as an include',
    url: '/jsonapi/node/apc_form_1?include=toString',
    status: 400,
    parameter: 'include',
  },
  {
    name: 'constructor in a nested include',
    url: '/jsonapi/node/apc_form_1?include=field_handler,field_handler.constructor',
    status: 400,
    parameter: 'include',
  },
  {
    name: 'constructor in a field list',
    url: '/jsonapi/node/season?fields[node--season]=title,constructor',
    status: 400,
    parameter: 'fields[node--season]',
  },
  {
    name: '__proto__ as a fields type',
    url: '/jsonapi/node/season?fields[__proto__]=title',
    status: 400,
    parameter: 'fields[__proto__]',
  },
  {
    name: 'toString as a fields type',
    url: '/jsonapi/node/season?fields[toString]=title',
    status: 400,
    parameter: 'fields[toString]',
  },
  {
    name: 'valueOf as a page member',
    url: '/jsonapi/node/season?page[valueOf]=1',
    status: 400,
    parameter: 'page[valueOf]',
  },
  {
    name: 'constructor as a related field',
    url: (ids) => `/jsonapi/node/season/${ids.season}/constructor`,
    status: 404,
  },
  {
    name: '__proto__ as a relationship',
    url: (ids) => `/jsonapi/node/season/${ids.season}/relationships/__proto__`,
    status: 404,
  },
  { name: 'toString as a type', url: '/jsonapi/node/toString', status: 404 },
  {
    name: 'constructor as an attribute written',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { constructor: 1 }),
    status: 422,
    pointer: '/data/attributes/constructor',
  },
  // The root group's name may not be taken: it would replace the root and drop the conditions before it.
  {
    name: 'a group named @root',
    url: `/jsonapi/node/season?${cond('a', { path: 'title', value: 'x' })}&filter[@root][group][conjunction]=OR`,
    status: 400,
    parameter: 'filter[@root]',
  },
  {
    name: 'a condition named @root',
    url: `/jsonapi/node/season?${cond('@root', { path: 'title', value: 'x' })}`,
    status: 400,
    parameter: 'filter[@root]',
  },
  // Paging.
  {
    name: 'non-numeric page[limit]',
    url: '/jsonapi/node/season?page[limit]=ten',
    status: 400,
    parameter: 'page[limit]',
  },
  { name: 'page[limit]=0', url: '/jsonapi/node/season?page[limit]=0', status: 400, parameter: 'page[limit]' },
  { name: 'page[limit] over 500', url: '/jsonapi/node/season?page[limit]=501', status: 400, parameter: 'page[limit]' },
  { name: 'negative page[limit]', url: '/jsonapi/node/season?page[limit]=-5', status: 400, parameter: 'page[limit]' },
  {
    name: 'fractional page[limit]',
    url: '/jsonapi/node/season?page[limit]=2.5',
    status: 400,
    parameter: 'page[limit]',
  },
  {
    name: 'non-numeric page[offset]',
    url: '/jsonapi/node/season?page[offset]=first',
    status: 400,
    parameter: 'page[offset]',
  },
  {
    name: 'negative page[offset]',
    url: '/jsonapi/node/season?page[offset]=-1',
    status: 400,
    parameter: 'page[offset]',
  },
  {
    name: 'huge page[offset]',
    url: '/jsonapi/node/season?page[offset]=99999999999999999999',
    status: 400,
    parameter: 'page[offset]',
  },
  { name: 'unknown paging parameter', url: '/jsonapi/node/season?page[size]=5', status: 400, parameter: 'page[size]' },
  { name: 'bare page', url: '/jsonapi/node/season?page=2', status: 400, parameter: 'page' },
  // Unknown parameters, types, paths and methods.
  { name: 'unknown query parameter', url: '/jsonapi/node/season?color=blue', status: 400, parameter: 'color' },
  {
    name: 'unknown query parameter on an item',
    url: (ids) => `/jsonapi/node/season/${ids.season}?debug=1`,
    status: 400,
    parameter: 'debug',
  },
  { name: 'unknown type', url: '/jsonapi/node/nope', status: 404 },
  { name: 'unknown entity type', url: '/jsonapi/nope/season', status: 404 },
  { name: 'unknown item', url: '/jsonapi/node/season/00000000-0000-4000-8000-000000000000', status: 404 },
  {
    name: 'unknown relationship',
    url: (ids) => `/jsonapi/node/season/${ids.season}/relationships/field_nope`,
    status: 404,
  },
  {
    name: 'unknown related field',
    url: (ids) => `/jsonapi/node/reporting_period/${ids.period}/field_nope`,
    status: 404,
  },
  {
    name: 'PUT on an item',
    method: 'PUT',
    url: (ids) => `/jsonapi/node/season/${ids.season}`,
    body: (ids: Ids) => ({ data: { type: 'node--season', id: ids.season, attributes: {} } }),
    status: 405,
  },
  {
    name: 'PUT on a collection',
    method: 'PUT',
    url: '/jsonapi/node/season',
    body: { data: { type: 'node--season', attributes: {} } },
    status: 405,
  },
  {
    name: 'PATCH of a relationship',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/reporting_forms_package/${ids.pkg}/relationships/field_form_1`,
    body: { data: [] },
    status: 405,
  },
  {
    name: 'POST to a to-one relationship',
    method: 'POST',
    url: (ids) => `/jsonapi/node/reporting_forms_package/${ids.pkg}/relationships/field_handler`,
    body: (ids: Ids) => ({ data: [{ type: 'node--handler', id: ids.handler }] }),
    status: 405,
  },
  { name: 'DELETE of a form', method: 'DELETE', url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`, status: 405 },
  {
    name: 'POST of an invoice',
    method: 'POST',
    url: '/jsonapi/node/invoice',
    body: { data: { type: 'node--invoice', attributes: {} } },
    status: 405,
  },
  // Bodies.
  {
    name: 'a body that is not JSON',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: { payload: '{"data": {', contentType: 'application/vnd.api+json' },
    status: 400,
  },
  {
    name: 'a JSON body that is not a document',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: { payload: '[1,2,3]', contentType: 'application/vnd.api+json' },
    status: 400,
  },
  {
    name: 'an empty body',
    method: 'POST',
    url: '/jsonapi/node/handler_packet_confirmation',
    raw: { payload: '', contentType: 'application/vnd.api+json' },
    status: 400,
  },
  {
    name: 'attributes that are not an object',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => ({ data: { type: 'node--apc_form_1', id: ids.draft1, attributes: [1] } }),
    status: 400,
    pointer: '/data/attributes',
  },
  {
    name: 'a body over 1 MiB',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: {
      payload: JSON.stringify({
        data: { type: 'node--apc_form_1', attributes: { field_amendment_reason: 'x'.repeat(1024 * 1024 + 10) } },
      }),
      contentType: 'application/vnd.api+json',
    },
    status: 413,
  },
  {
    name: 'text/plain',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: { payload: '{"data":{}}', contentType: 'text/plain' },
    status: 415,
  },
  {
    name: 'form encoding on the JSON:API',
    method: 'POST',
    url: '/jsonapi/node/handler_packet_confirmation',
    raw: { payload: 'data[type]=node--handler_packet_confirmation', contentType: 'application/x-www-form-urlencoded' },
    status: 415,
  },
  {
    name: 'a media type parameter',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: { payload: '{"data":{}}', contentType: 'application/vnd.api+json; version=2' },
    status: 415,
  },
  {
    name: 'a body type that mismatches the URL',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => ({
      data: { type: 'node--apc_form_2', id: ids.draft1, attributes: { field_date_completed: '2026-11-20' } },
    }),
    status: 409,
    pointer: '/data/type',
  },
  {
    name: 'a POST type that mismatches the URL',
    method: 'POST',
    url: '/jsonapi/node/handler_packet_confirmation',
    body: { data: { type: 'node--season', attributes: {} } },
    status: 409,
    pointer: '/data/type',
  },
  {
    name: 'a body id that mismatches the URL',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => ({ data: { type: 'node--apc_form_1', id: ids.certified1, attributes: {} } }),
    status: 409,
    pointer: '/data/id',
  },
  // Lifecycle.
  {
    name: 'PATCH of a certified form',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.certified1}`,
    body: (ids: Ids) => ({
      data: { type: 'node--apc_form_1', id: ids.certified1, attributes: { field_receipts_native: 1 } },
    }),
    status: 409,
  },
  {
    name: 'a stale changed in meta',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => ({
      data: {
        type: 'node--apc_form_1',
        id: ids.draft1,
        attributes: { field_receipts_native: 1 },
        meta: { changed: '2020-01-01T00:00:00+00:00' },
      },
    }),
    status: 409,
  },
  {
    name: 'a second packet confirmation for a season',
    method: 'POST',
    url: '/jsonapi/node/handler_packet_confirmation',
    body: (ids: Ids) => ({
      data: {
        type: 'node--handler_packet_confirmation',
        attributes: { field_handler_packet_confirm: true },
        relationships: {
          field_handler: { data: { type: 'node--handler', id: ids.handler } },
          field_season: { data: { type: 'node--season', id: ids.season } },
        },
      },
    }),
    status: 409,
  },
  // Invalid field values: one 422 per field, each with its pointer.
  {
    name: 'negative pounds',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_receipts_native: -5 }),
    status: 422,
    pointer: '/data/attributes/field_receipts_native',
  },
  {
    name: 'text in a pounds field',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_receipts_native: 'lots' }),
    status: 422,
    pointer: '/data/attributes/field_receipts_native',
  },
  {
    name: 'fractional pounds',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_shipments_inshell: 10.5 }),
    status: 422,
    pointer: '/data/attributes/field_shipments_inshell',
  },
  {
    name: 'a date that does not exist',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_date_completed: '2026-02-30' }),
    status: 422,
    pointer: '/data/attributes/field_date_completed',
  },
  {
    name: 'a date in another format',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_date_completed: '11/20/2026' }),
    status: 422,
    pointer: '/data/attributes/field_date_completed',
  },
  {
    name: 'a computed field',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_receipts_total: 5 }),
    status: 422,
    pointer: '/data/attributes/field_receipts_total',
  },
  {
    name: 'the computed assessment',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_assessment_due: '0.00' }),
    status: 422,
    pointer: '/data/attributes/field_assessment_due',
  },
  {
    name: 'an unknown attribute',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_nope: 1 }),
    status: 422,
    pointer: '/data/attributes/field_nope',
  },
  {
    name: 'a list nested 20 deep',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: {
      payload: (ids) =>
        `{"data":{"type":"node--apc_form_1","id":"${ids.draft1}","attributes":{"field_receipts_by_variety":${'['.repeat(20)}${']'.repeat(20)}}}}`,
      contentType: 'application/vnd.api+json',
    },
    status: 422,
  },
  {
    name: 'a list nested 600 deep',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: {
      payload: (ids) =>
        `{"data":{"type":"node--apc_form_1","id":"${ids.draft1}","attributes":{"field_receipts_by_variety":${'['.repeat(600)}${']'.repeat(600)}}}}`,
      contentType: 'application/vnd.api+json',
    },
    status: 400,
  },
  {
    name: 'a list entry nested 600 deep',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: {
      payload: (ids) =>
        `{"data":{"type":"node--apc_form_1","id":"${ids.draft1}","attributes":{"field_receipts_by_variety":[{"variety":"Desirable","pounds":${'{"a":'.repeat(600)}1${'}'.repeat(600)}}]}}}`,
      contentType: 'application/vnd.api+json',
    },
    status: 400,
  },
  {
    name: 'a body nested 100,000 deep',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    raw: {
      payload: (ids) =>
        `{"data":{"type":"node--apc_form_1","id":"${ids.draft1}","attributes":{"field_receipts_by_variety":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`,
      contentType: 'application/vnd.api+json',
    },
    status: 400,
  },
  {
    name: 'a bad variety list',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_receipts_by_variety: [{ variety: 'Desirable', pounds: -1 }] }),
    status: 422,
  },
  {
    name: 'several invalid fields at once, one error each',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) =>
      form1(ids, { field_receipts_native: -1, field_inventory_inshell: 'x', field_shipments_inshell_ytd: 3 }),
    status: 422,
    pointer: [
      '/data/attributes/field_inventory_inshell',
      '/data/attributes/field_receipts_native',
      '/data/attributes/field_shipments_inshell_ytd',
    ],
  },
  {
    name: 'a sub-record with negative pounds',
    method: 'POST',
    url: '/jsonapi/node/export_by_country',
    body: (ids: Ids) => ({
      data: {
        type: 'node--export_by_country',
        attributes: { field_country: 'CA', field_inshell_lb: -3, field_shelled_lb: 0, field_substandard_lb: 0 },
        relationships: { field_form: { data: { type: 'node--apc_form_3', id: ids.draft1 } } },
      },
    }),
    status: 422,
  },
  // Authentication.
  { name: 'no token', url: '/jsonapi/node/season', token: null, status: 401 },
  { name: 'a bogus token', url: '/jsonapi/node/season', token: 'bogus', status: 401 },
  {
    name: 'no token on a write',
    method: 'PATCH',
    url: (ids) => `/jsonapi/node/apc_form_1/${ids.draft1}`,
    body: (ids: Ids) => form1(ids, { field_receipts_native: 1 }),
    token: null,
    status: 401,
  },
  { name: 'no token on the index', url: '/jsonapi', token: null, status: 401 },
];

describeEachDatabase('bad input', (target) => {
  let d: DemoApp;
  let ids: Ids;
  let before: Record<string, string>;
  let draftBefore: unknown;

  beforeAll(async () => {
    d = await demoApp(target);
    const db = d.ctx.db;
    const h = d.handlers['101'];
    const draft = await db
      .selectFrom('apc_form_1')
      .selectAll()
      .where('handler_id', '=', h)
      .where('form_status', '=', 'draft')
      .executeTakeFirstOrThrow();
    const certified = await db
      .selectFrom('apc_form_1')
      .select('id')
      .where('handler_id', '=', h)
      .where('form_status', '=', 'certified')
      .executeTakeFirstOrThrow();
    const confirmation = await db
      .selectFrom('handler_packet_confirmations')
      .select('season_id')
      .where('handler_id', '=', h)
      .executeTakeFirstOrThrow();
    ids = {
      draft1: String(draft.id),
      draft1Changed: String(draft.changed),
      certified1: String(certified.id),
      season: String(confirmation.season_id),
      handler: h,
      period: String(draft.period_id),
      pkg: String(draft.package_id),
    };
    draftBefore = draft;
    before = await checksum(d.ctx);
  });
  afterAll(async () => {
    await d?.close();
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const url = typeof c.url === 'function' ? c.url(ids) : c.url;
    const method = c.method ?? 'GET';
    const token =
      c.token === undefined
        ? d.tokens[method === 'GET' ? 'alice' : 'alice']
        : c.token === 'bogus'
          ? 'not-a-real-token'
          : c.token === null
            ? null
            : d.tokens[c.token];
    let status: number;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test reads whatever each answer holds
    let body: any;
    let headers: Record<string, unknown>;
    if (c.raw) {
      const r = await d.app.inject({
        method: method as 'POST',
        url,
        payload: typeof c.raw.payload === 'function' ? c.raw.payload(ids) : c.raw.payload,
        headers: {
          'content-type': c.raw.contentType,
          accept: 'application/vnd.api+json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      status = r.statusCode;
      headers = r.headers;
      try {
        body = JSON.parse(r.body);
      } catch {
        body = r.body;
      }
    } else {
      const payload = typeof c.body === 'function' ? (c.body as (i: Ids) => unknown)(ids) : c.body;
      ({ status, body, headers } = await api(d.app, token, method, url, payload));
    }
    expect(status, JSON.stringify(body)).toBe(c.status);
    expect(String(headers['content-type'])).toMatch(/^application\/vnd\.api\+json/);
    expect(body.data).toBeUndefined();
    expect(Array.isArray(body.errors) && body.errors.length > 0, JSON.stringify(body)).toBe(true);
    for (const e of body.errors) {
      expect(e.status).toBe(String(c.status));
      expect(typeof e.title).toBe('string');
      expect(typeof e.detail).toBe('string');
      expect(JSON.stringify(e)).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
    }
    if (c.parameter) expect(body.errors[0].source?.parameter).toBe(c.parameter);
    if (c.status === 400 && !c.parameter && !c.raw && method === 'GET')
      expect(body.errors[0].source?.parameter).toMatch(/^filter\[/);
    if (typeof c.pointer === 'string')
      expect(body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toEqual([c.pointer]);
    if (Array.isArray(c.pointer))
      expect(body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer).sort()).toEqual(c.pointer);
    if (c.status === 422) for (const e of body.errors) expect(e.source?.pointer).toMatch(/^\/data\//);
    if (c.status === 401) expect(headers['www-authenticate']).toBe('Bearer');
    if (c.status === 405) expect(headers.allow).toBeTruthy();
  });

  it('changed nothing: every table checksum and the draft form are as before', async () => {
    expect(await checksum(d.ctx)).toEqual(before);
    const draft = await d.ctx.db
      .selectFrom('apc_form_1')
      .selectAll()
      .where('id', '=', ids.draft1)
      .executeTakeFirstOrThrow();
    expect(draft).toEqual(draftBefore);
    console.log(`[${target.dialect}] bad input: ${CASES.length} cases, none a 500, no data changed`);
  });
});
