import { sql } from 'kysely';
import {
  attr,
  derivedAttr,
  nodeAttributes,
  serialAttr,
  toMany,
  toOne,
  type ResourceDef,
  type Row,
} from '../jsonapi/resource.js';
import { everyone, handlerAccess, ownHandler, userAccess } from './access.js';

export const season: ResourceDef = {
  type: 'node--season',
  entity: 'node',
  bundle: 'season',
  table: 'seasons',
  attributes: {
    ...nodeAttributes(true),
    field_season_start_date: attr('season_start_date', 'date', { writable: true, nullable: false }),
    field_season_end_date: attr('season_end_date', 'date', { writable: true, nullable: false }),
    field_reporting_due_date: attr('reporting_due_date', 'date', { writable: true, nullable: false }),
    field_current_season: attr('current_season', 'bool', { writable: true, nullable: false }),
  },
  relationships: {},
  access: everyone,
  defaultSort: 'field_season_start_date',
};

export const reportingPeriod: ResourceDef = {
  type: 'node--reporting_period',
  entity: 'node',
  bundle: 'reporting_period',
  table: 'reporting_periods',
  attributes: {
    ...nodeAttributes(true),
    field_period_month: attr('period_month', 'month', {
      writable: true,
      nullable: false,
      description: 'The month reported on.',
    }),
    field_due_date: attr('due_date', 'date', { writable: true, nullable: false }),
  },
  relationships: { field_season: toOne('node--season', 'season_id', { writable: true }) },
  access: everyone,
  defaultSort: 'field_period_month',
};

/**
 * A handler company. Others see an active handler's name and number, and its contacts when it is in the directory
 * (`card`); its analytics and confirmations are its own.
 */
export const handler: ResourceDef = {
  type: 'node--handler',
  entity: 'node',
  bundle: 'handler',
  table: 'handlers',
  attributes: {
    ...nodeAttributes(true),
    field_handler_number: attr('handler_number', 'string', { writable: true, nullable: false }),
    field_handler_status: attr('handler_status', 'string', {
      writable: true,
      nullable: false,
      allowed: ['active', 'inactive'],
    }),
    field_show_in_handler_directory: attr('show_in_handler_directory', 'bool', { writable: true, nullable: false }),
    field_address: attr('address', 'string', { writable: true, visibility: 'card' }),
    field_phone: attr('phone', 'string', { writable: true, visibility: 'card' }),
    field_email: attr('email', 'string', { writable: true, visibility: 'card' }),
    field_website: attr('website', 'string', { writable: true, visibility: 'card' }),
  },
  relationships: {
    field_handler_analytics: toMany('node--handler_analytics', 'handler_id', ['created'], 'full'),
    field_handler_packet_confirms: toMany('node--handler_packet_confirmation', 'handler_id', ['created'], 'full'),
  },
  access: handlerAccess,
  defaultSort: 'title',
};

export const handlerPacketConfirmation: ResourceDef = {
  type: 'node--handler_packet_confirmation',
  entity: 'node',
  bundle: 'handler_packet_confirmation',
  table: 'handler_packet_confirmations',
  attributes: {
    ...nodeAttributes(true),
    field_handler_packet_confirm: attr('handler_packet_confirm', 'bool', { writable: true, nullable: false }),
    field_certification_datetime: attr('certification_datetime', 'datetime', { writable: true }),
    field_certification_name: attr('certification_name', 'string', { writable: true }),
  },
  relationships: {
    field_season: toOne('node--season', 'season_id', { writable: true }),
    field_handler: toOne('node--handler', 'handler_id', { writable: true }),
  },
  access: ownHandler(),
  defaultSort: 'created',
};

/** A person. Mail and account details are for oneself and staff; colleagues see the directory card. */
export const user: ResourceDef = {
  type: 'user--user',
  entity: 'user',
  bundle: 'user',
  table: 'users',
  attributes: {
    drupal_internal__uid: serialAttr('user'),
    display_name: derivedAttr(
      'string',
      {
        columns: ['first_name', 'last_name', 'name'],
        value: displayName,
        sql: (alias) => {
          const full = sql`trim(${sql.ref(`${alias}.first_name`)} || ' ' || ${sql.ref(`${alias}.last_name`)})`;
          return sql`(case when ${full} = '' then ${sql.ref(`${alias}.name`)} else ${full} end)`;
        },
      },
      'The name to show: first and last name, or the user name when both are empty.',
    ),
    name: attr('name', 'string', { nullable: false }),
    created: attr('created', 'datetime', { nullable: false }),
    changed: attr('changed', 'datetime', { nullable: false }),
    field_first_name: attr('first_name', 'string', { writable: true, nullable: false }),
    field_last_name: attr('last_name', 'string', { writable: true, nullable: false }),
    field_job_title: attr('job_title', 'string', { writable: true }),
    field_phone: attr('phone', 'string', { writable: true }),
    field_show_in_directory: attr('show_in_directory', 'bool', { writable: true, nullable: false }),
    mail: attr('mail', 'string', { visibility: 'full', writable: true }),
    status: attr('status', 'string', { visibility: 'full', allowed: ['active', 'blocked', 'pending', 'refused'] }),
    field_role: attr('role', 'string', { visibility: 'full', allowed: ['handler', 'staff'] }),
  },
  relationships: { field_user_handler_company: toOne('node--handler', 'handler_id') },
  access: userAccess,
  defaultSort: 'name',
};

/** A user's display name: "First Last", or the user name when the person gave no name. */
function displayName(row: Row): string {
  const full = `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim();
  return full === '' ? String(row.name ?? '') : full;
}

export const pecanVariety: ResourceDef = {
  type: 'taxonomy_term--pecan_variety',
  entity: 'taxonomy_term',
  bundle: 'pecan_variety',
  table: 'pecan_varieties',
  attributes: {
    name: attr('title', 'string', { writable: true, nullable: false }),
    weight: attr('position', 'int', { writable: true, nullable: false }),
    created: attr('created', 'datetime', { nullable: false }),
    changed: attr('changed', 'datetime', { nullable: false }),
  },
  relationships: {},
  access: everyone,
  defaultSort: 'weight',
};
