import type { Row } from '../jsonapi/resource.js';

/**
 * The write-isolation test's model of who may write what, written from the contract ("a handler user writes its own
 * draft forms, their sub-records, certification, amendments, its packet confirmations, forms 4 it transfers, its own
 * profile; nothing else"; "an API client saves its handler's drafts, it cannot certify"; staff keep reference data,
 * handlers and users) and independent of
 * server/src/resources/write-policy.ts: the test compares the server's answers with this.
 */
export interface Writer {
  who: string;
  role: 'handler' | 'staff';
  userId: string;
  handlerId: string | null;
  /**
   * An API client of the handler with write scope (docs/API-CLIENTS.md): it saves its handler's drafts, nothing else.
   */
  client?: boolean;
}

/**
 * What the server must answer: done, refused (403, or 404 when the writer cannot read the record), no such write (405),
 * wrong state (409), a fixed field (422).
 */
export type Outcome = 'done' | 'refused' | 'no such write' | 'wrong state' | 'fixed';

const truthy = (v: unknown) => v === true || v === 1 || v === '1';
const REFERENCE = new Set(['node--season', 'node--reporting_period', 'taxonomy_term--pecan_variety']);
const VERSIONED = new Set(['node--apc_form_1', 'node--apc_form_2', 'node--apc_form_3', 'node--apc_form_5']);
const SUB_RECORDS: Record<string, string> = {
  'node--pecans_purchased_non_us': 'node--apc_form_2',
  'node--export_by_country': 'node--apc_form_3',
};

/**
 * Relationships fixed once the record exists: a filing's handler, season and place; a transfer's parties; a row's form.
 */
export const FIXED: Record<string, string[]> = {
  'node--apc_form_1': ['field_amendment_of'],
  'node--apc_form_2': ['field_amendment_of'],
  'node--apc_form_3': ['field_amendment_of'],
  'node--apc_form_5': ['field_handler', 'field_season', 'field_amendment_of'],
  'node--apc_form_4': ['field_transferring_handler', 'field_receiving_handler', 'field_season'],
  'node--pecans_purchased_non_us': ['field_form'],
  'node--export_by_country': ['field_form'],
  'node--handler_packet_confirmation': ['field_handler', 'field_season'],
};

/** Which writes exist at all, per type (anything else is 405). */
const METHODS: Record<string, Array<'PATCH' | 'DELETE'>> = {
  'node--season': ['PATCH'],
  'node--reporting_period': ['PATCH'],
  'taxonomy_term--pecan_variety': ['PATCH'],
  'node--handler': ['PATCH'],
  'user--user': ['PATCH'],
  'node--handler_packet_confirmation': ['PATCH'],
  'node--apc_form_1': ['PATCH'],
  'node--apc_form_2': ['PATCH'],
  'node--apc_form_3': ['PATCH'],
  'node--apc_form_5': ['PATCH'],
  'node--apc_form_4': ['PATCH'],
  'node--pecans_purchased_non_us': ['PATCH', 'DELETE'],
  'node--export_by_country': ['PATCH', 'DELETE'],
};

/** The handler a record belongs to, for the records a handler user may write. */
function companyOf(type: string, row: Row): unknown {
  if (type === 'node--handler') return row.id;
  return row.handler_id;
}

export class WriteModel {
  constructor(private readonly rowOf: (type: string, id: string) => Row | undefined) {}

  /** PATCH with no changes (`update`), or DELETE, of a record. */
  write(w: Writer, method: 'PATCH' | 'DELETE', type: string, row: Row): Outcome {
    if (!METHODS[type]?.includes(method)) return 'no such write';
    if (!this.mayTouch(w, type, row)) return 'refused';
    return this.stateAllows(type, row) ? 'done' : 'wrong state';
  }

  /** PATCH of a record's to-one relationship to another value (another handler's record, or another season). */
  relink(w: Writer, type: string, row: Row, field: string): Outcome {
    if (!METHODS[type]?.includes('PATCH')) return 'no such write';
    if (!this.mayTouch(w, type, row)) return 'refused';
    if (FIXED[type]?.includes(field)) return 'fixed';
    return w.role === 'staff' ? 'done' : 'refused';
  }

  /**
   * A form's certification, a transfer's countersignature by its receiver, a transfer's cancellation by either party
   * (undefined: the type has no such step).
   */
  step(w: Writer, type: string, row: Row, step: 'certify' | 'countersign' | 'cancel'): Outcome | undefined {
    // Certification, countersignature and cancellation are a person's acts.
    if (w.client)
      return type === 'node--apc_form_4' || (VERSIONED.has(type) && step === 'certify') ? 'refused' : undefined;
    if (type === 'node--apc_form_4') {
      const parties =
        w.role === 'staff'
          ? ['staff']
          : [
              ...(row.transferring_handler_id === w.handlerId ? ['transferring'] : []),
              ...(row.receiving_handler_id === w.handlerId ? ['receiving'] : []),
            ];
      const may = {
        certify: ['staff', 'transferring'],
        countersign: ['staff', 'receiving'],
        cancel: ['staff', 'transferring', 'receiving'],
      }[step];
      if (!parties.some((p) => may.includes(p))) return 'refused';
      const active = row.form_activity === 'active';
      const state = {
        certify: row.form_status === 'draft',
        countersign: row.form_status === 'certified',
        cancel: true,
      }[step];
      return active && state ? 'done' : 'wrong state';
    }
    if (!VERSIONED.has(type) || step !== 'certify') return undefined;
    if (!this.mayTouch(w, type, row)) return 'refused';
    return row.form_status === 'draft' ? 'done' : 'wrong state';
  }

  /** May the writer edit this record at all (its state aside)? */
  private mayTouch(w: Writer, type: string, row: Row): boolean {
    if (w.role === 'staff') return true;
    // A client: its handler's forms 1, 2, 3, 5 and their rows (the drafts among them), nothing else.
    if (w.client) return (VERSIONED.has(type) || type in SUB_RECORDS) && companyOf(type, row) === w.handlerId;
    if (REFERENCE.has(type) || type === 'node--handler') return false;
    if (type === 'user--user') return row.id === w.userId;
    if (type === 'node--apc_form_4') return row.transferring_handler_id === w.handlerId;
    return companyOf(type, row) === w.handlerId;
  }

  private stateAllows(type: string, row: Row): boolean {
    if (VERSIONED.has(type)) return row.form_status === 'draft';
    if (type === 'node--apc_form_4') return row.form_status === 'draft' && row.form_activity === 'active';
    const parentType = SUB_RECORDS[type];
    if (parentType) return this.rowOf(parentType, String(row.form_id))?.form_status === 'draft';
    return true;
  }

  /** Can the writer read the record (a refusal may then be a 404 rather than a 403)? Used only to label cases. */
  static ownerLabel(w: Writer, type: string, row: Row): 'own' | 'colleague' | 'other handler' | 'staff-only' {
    if (type === 'user--user') {
      if (row.id === w.userId) return 'own';
      if (!row.handler_id) return 'staff-only';
      return row.handler_id === w.handlerId ? 'colleague' : 'other handler';
    }
    if (REFERENCE.has(type)) return 'staff-only';
    if (type === 'node--apc_form_4')
      return row.transferring_handler_id === w.handlerId || row.receiving_handler_id === w.handlerId
        ? 'own'
        : 'other handler';
    if (w.role === 'staff') return 'own';
    const company = type === 'node--handler' ? row.id : row.handler_id;
    if (company === undefined) return 'staff-only';
    return company === w.handlerId ? 'own' : 'other handler';
  }
}

export { truthy };
