import { attr, nodeAttributes, toOne, type ResourceDef } from '../jsonapi/resource.js';
import { everyone, flagged, ownHandler } from './access.js';

export const invoice: ResourceDef = {
  type: 'node--invoice',
  entity: 'node',
  bundle: 'invoice',
  table: 'invoices',
  attributes: {
    ...nodeAttributes(),
    field_invoice_number: attr('invoice_number', 'string', { nullable: false }),
    field_amount_due: attr('amount_due_cents', 'money', { nullable: false, description: 'US dollars.' }),
    field_due_date: attr('due_date', 'date', { nullable: false }),
    field_invoice_status: attr('invoice_status', 'string', { nullable: false, allowed: ['open', 'paid'] }),
    field_paid_date: attr('paid_date', 'date'),
    field_paid_reference: attr('paid_reference', 'string'),
    // The inter-handler lines as issued: the counterparty's name and number, the type and pounds, nothing else of it.
    field_transfer_lines: attr('transfer_lines', 'json', { nullable: false }),
  },
  relationships: {
    field_handler: toOne('node--handler', 'handler_id'),
    field_reporting_period: toOne('node--reporting_period', 'period_id'),
    field_form_1: toOne('node--apc_form_1', 'form_1_id'),
    field_invoice_pdf: toOne('file--file', 'invoice_pdf_id'),
  },
  access: ownHandler(),
  defaultSort: 'field_due_date',
};

export const monthlyPositionReport: ResourceDef = {
  type: 'node--monthly_position_report',
  entity: 'node',
  bundle: 'monthly_position_report',
  table: 'monthly_position_reports',
  attributes: {
    ...nodeAttributes(),
    field_publish_to_portal: attr('publish_to_portal', 'bool', { nullable: false }),
    field_handlers_count: attr('handlers_count', 'int', { nullable: false }),
  },
  relationships: {
    field_reporting_period: toOne('node--reporting_period', 'period_id'),
    field_position_report_pdf: toOne('file--file', 'position_report_pdf_id'),
  },
  access: flagged('publish_to_portal'),
  defaultSort: 'created',
};

export const annualPositionReport: ResourceDef = {
  type: 'node--annual_position_report',
  entity: 'node',
  bundle: 'annual_position_report',
  table: 'annual_position_reports',
  attributes: { ...nodeAttributes(), field_handlers_count: attr('handlers_count', 'int', { nullable: false }) },
  relationships: {
    field_season: toOne('node--season', 'season_id'),
    field_position_report_pdf: toOne('file--file', 'position_report_pdf_id'),
  },
  access: everyone,
  defaultSort: 'created',
};

export const industryAnalytics: ResourceDef = {
  type: 'node--industry_analytics',
  entity: 'node',
  bundle: 'industry_analytics',
  table: 'industry_analytics',
  attributes: { ...nodeAttributes(), field_published_date: attr('published_date', 'date') },
  relationships: {
    field_season: toOne('node--season', 'season_id'),
    field_industry_analytics_xlsx: toOne('file--file', 'industry_analytics_xlsx_id'),
  },
  access: everyone,
  defaultSort: 'created',
};

export const handlerAnalytics: ResourceDef = {
  type: 'node--handler_analytics',
  entity: 'node',
  bundle: 'handler_analytics',
  table: 'handler_analytics',
  attributes: nodeAttributes(),
  relationships: {
    field_handler: toOne('node--handler', 'handler_id'),
    field_season: toOne('node--season', 'season_id'),
    field_analytics_xlsx: toOne('file--file', 'analytics_xlsx_id'),
  },
  access: ownHandler(),
  defaultSort: 'created',
};
