import { FORM_FIELDS, type FormBundle } from '@pecan/contract';
import type { WriteInput } from '../jsonapi/resource.js';

/**
 * Who may write what: the write rules of every resource type in one place, beside the read rules of access.ts.
 * `write-guard.ts` checks every write against this before the type's workflow runs, inside the write's transaction;
 * the workflows keep the domain rules (a transfer's receiver is active, one form 5 per handler and season, ...).
 *
 * Parties: how the writer stands to the record.
 * - `staff`: council staff (any record).
 * - `own`: a handler user of the record's handler. Colleagues of one company share its filings, so a draft a
 *   colleague started is `own` too.
 * - `self`: a user record of the user itself (a colleague's record is not `self`).
 * - `transferring` / `receiving`: a handler user of that party of a form 4.
 * - `client`: an API client of the record's handler whose scope includes write (docs/API-CLIENTS.md). A client is
 *   never any other party: it saves drafts only, and never sets the fields of `PERSON_ONLY_FIELDS` (certification
 *   stays a person's act), whatever the action.
 * A handler user of any other handler is no party: refused with 403 (404 when it cannot read the record either).
 *
 * Fields: an action lists the attributes and relationships it accepts; naming any other one is a 422 with its
 * pointer. `frozen` ones are set at create and never change afterwards (repeating the same value is accepted).
 * `links` says whose record a to-one relationship may name: `own` (the writer's own handler or a record of it),
 * `any handler` (a transfer's receiver), `reference` (seasons, periods: everyone's).
 */
export type Party = 'staff' | 'own' | 'self' | 'transferring' | 'receiving' | 'client';
/**
 * A record's state an action needs: a draft form, a certified one, an active (not cancelled) transfer, a row of a draft
 * form.
 */
export type State = 'draft' | 'certified' | 'active' | 'form is a draft';
export type LinkRule = 'own' | 'any handler' | 'reference';
/** How a record names its handler(s): `handler_id`, its own id (a handler), a user, a transfer's two parties, none. */
export type Ownership = 'none' | 'handler' | 'handler itself' | 'user' | 'parties';

export interface ActionRule {
  by: Party[];
  /** Attributes and relationships the action accepts; `writable`: every writable one of the type. */
  fields: string[] | 'writable';
  /** The record must be in each of these states. */
  while?: State[];
  /** Fields `fields` would take that this action refuses all the same, each with where it changes instead. */
  except?: Record<string, string>;
}

export type Action =
  'create' | 'amend' | 'update' | 'certify' | 'countersign' | 'cancel' | 'delete' | `add to ${string}`;

export interface TypeWritePolicy {
  owner: Ownership;
  actions: Partial<Record<Action, ActionRule>>;
  frozen?: string[];
  links?: Record<string, LinkRule>;
  /** Which action a POST is (`create` unless said). */
  createAction?(input: WriteInput): Action;
  /** Which action a PATCH is (`update` unless said). */
  updateAction?(input: WriteInput): Action;
}

export const MAIL_NOT_PATCHABLE =
  'The e-mail address cannot be changed here: use POST /api/account/email with your ' +
  'current password and the new address (the profile page\'s "Change e-mail address"); it changes when the link mailed ' +
  "to the new address is opened. Council staff change other users' addresses in the council console.";

const STAFF: Party[] = ['staff'];
const OWN: Party[] = ['staff', 'own'];
/** Draft saves an API client with write scope may make too. */
const OWN_OR_CLIENT: Party[] = ['staff', 'own', 'client'];
const entered = (bundle: FormBundle) =>
  FORM_FIELDS[bundle].filter((f) => f.entry === 'entered').map((f) => `field_${f.name}`);
const CERTIFICATION = ['field_certified', 'field_certification_name', 'field_certification_title'];
/** The receiving handler's countersignature of a form 4: its statement, name and title. */
const COUNTERSIGNATURE = [
  'field_receiving_certified',
  'field_receiving_certification_name',
  'field_receiving_certification_title',
];
/** Fields only a person sets: an API client naming one is refused with 422 (certification is a person's act). */
export const PERSON_ONLY_FIELDS = [
  ...CERTIFICATION,
  ...COUNTERSIGNATURE,
  'field_handler_packet_confirm',
  'field_certification_datetime',
];

/** A PATCH with `field_certified: true` certifies (and may save the draft's last edits with it). */
const certifies = (input: WriteInput): Action => (input.attributes.field_certified === true ? 'certify' : 'update');

/** Reference data staff keep: seasons, periods, varieties. */
const referenceData = (links: Record<string, LinkRule> = {}): TypeWritePolicy => ({
  owner: 'none',
  actions: { create: { by: STAFF, fields: 'writable' }, update: { by: STAFF, fields: 'writable' } },
  links,
});

/** Forms 1, 2, 3: made by the server each month; a new version is an amendment of the certified one. */
function monthlyForm(bundle: 'apc_form_1' | 'apc_form_2' | 'apc_form_3'): TypeWritePolicy {
  const draft = [...entered(bundle), 'field_amendment_reason', ...CERTIFICATION];
  return {
    owner: 'handler',
    actions: {
      amend: { by: OWN, fields: [...draft, 'field_amendment_of'] },
      update: { by: OWN_OR_CLIENT, fields: draft, while: ['draft'] },
      certify: { by: OWN, fields: draft, while: ['draft'] },
    },
    frozen: ['field_amendment_of'],
    links: { field_amendment_of: 'own' },
    createAction: () => 'amend',
    updateAction: certifies,
  };
}

/** Rows of forms 2 and 3: added, changed and removed while their form is a draft. */
function subRecord(bundle: 'pecans_purchased_non_us' | 'export_by_country'): TypeWritePolicy {
  const fields = [...entered(bundle), 'field_position'];
  return {
    owner: 'handler',
    actions: {
      create: { by: OWN_OR_CLIENT, fields: [...fields, 'field_form'] },
      update: { by: OWN_OR_CLIENT, fields, while: ['form is a draft'] },
      delete: { by: OWN_OR_CLIENT, fields: [], while: ['form is a draft'] },
    },
    frozen: ['field_form'],
    links: { field_form: 'own' },
  };
}

const form5Draft = [...entered('apc_form_5'), 'field_amendment_reason', ...CERTIFICATION];

export const WRITE_POLICY: Record<string, TypeWritePolicy> = {
  'node--season': referenceData(),
  'node--reporting_period': referenceData({ field_season: 'reference' }),
  'taxonomy_term--pecan_variety': referenceData(),
  'node--handler': {
    owner: 'handler itself',
    actions: {
      create: { by: STAFF, fields: 'writable' },
      update: { by: STAFF, fields: 'writable' },
      'add to field_handler_packet_confirms': { by: OWN, fields: [] },
    },
  },
  'node--handler_packet_confirmation': {
    owner: 'handler',
    actions: {
      // The title and time may be sent (the spec's client does) but the server sets them.
      create: {
        by: OWN,
        fields: [
          'title',
          'field_handler_packet_confirm',
          'field_certification_name',
          'field_certification_datetime',
          'field_handler',
          'field_season',
        ],
      },
      update: {
        by: OWN,
        fields: ['title', 'field_handler_packet_confirm', 'field_certification_name', 'field_certification_datetime'],
      },
    },
    frozen: ['field_handler', 'field_season'],
    links: { field_handler: 'own', field_season: 'reference' },
  },
  'user--user': {
    owner: 'user',
    // An address changes only through its own flow (accounts/email-change.ts), never by a plain PATCH.
    actions: { update: { by: ['staff', 'self'], fields: 'writable', except: { mail: MAIL_NOT_PATCHABLE } } },
  },
  'node--reporting_forms_package': {
    owner: 'handler',
    actions: {
      'add to field_form_1': { by: OWN, fields: [] },
      'add to field_form_2': { by: OWN, fields: [] },
      'add to field_form_3': { by: OWN, fields: [] },
    },
  },
  'node--apc_form_1': monthlyForm('apc_form_1'),
  'node--apc_form_2': monthlyForm('apc_form_2'),
  'node--apc_form_3': monthlyForm('apc_form_3'),
  'node--pecans_purchased_non_us': subRecord('pecans_purchased_non_us'),
  'node--export_by_country': subRecord('export_by_country'),
  'node--apc_form_4': {
    owner: 'parties',
    actions: {
      create: {
        by: ['staff', 'transferring'],
        fields: [
          ...entered('apc_form_4'),
          ...CERTIFICATION,
          'field_transferring_handler',
          'field_receiving_handler',
          'field_season',
        ],
      },
      update: { by: ['staff', 'transferring'], fields: entered('apc_form_4'), while: ['draft', 'active'] },
      certify: {
        by: ['staff', 'transferring'],
        fields: [...entered('apc_form_4'), ...CERTIFICATION],
        while: ['draft', 'active'],
      },
      countersign: {
        by: ['staff', 'receiving'],
        fields: COUNTERSIGNATURE,
        while: ['certified', 'active'],
      },
      cancel: { by: ['staff', 'transferring', 'receiving'], fields: ['field_form_activity'], while: ['active'] },
    },
    // A transfer's parties and season are what both sides agreed to: cancel it and file a new one instead.
    frozen: ['field_transferring_handler', 'field_receiving_handler', 'field_season'],
    links: { field_transferring_handler: 'own', field_receiving_handler: 'any handler', field_season: 'reference' },
    updateAction: (input) => {
      if (input.attributes.field_form_activity !== undefined) return 'cancel';
      if (COUNTERSIGNATURE.some((f) => input.attributes[f] !== undefined)) return 'countersign';
      return certifies(input);
    },
  },
  'node--apc_form_5': {
    owner: 'handler',
    actions: {
      create: { by: OWN_OR_CLIENT, fields: [...form5Draft, 'field_handler', 'field_season'] },
      amend: { by: OWN, fields: [...form5Draft, 'field_handler', 'field_season', 'field_amendment_of'] },
      update: { by: OWN_OR_CLIENT, fields: form5Draft, while: ['draft'] },
      certify: { by: OWN, fields: form5Draft, while: ['draft'] },
    },
    frozen: ['field_handler', 'field_season', 'field_amendment_of'],
    links: { field_handler: 'own', field_season: 'reference', field_amendment_of: 'own' },
    createAction: (input) => (input.relationships.field_amendment_of ? 'amend' : 'create'),
    updateAction: certifies,
  },
};
