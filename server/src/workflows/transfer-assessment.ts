import { assessmentRateFor, type PecanType, type TransferRow } from '@pecan/contract';
import type { Row } from '../jsonapi/resource.js';
import { ApiError } from '../lib/errors.js';
import { dbOf, type Actor } from './common.js';

/**
 * Who pays the assessment on pecans moved between handlers (986.162, 986.26; decision 0010). The first handler, the
 * one that received them from growers, owes it, unless a form 4 agreement for the pair and season names the
 * receiving handler responsible. Such an agreement counts once both parties signed it (certified and countersigned)
 * and while it is not cancelled. Then the month's shipment lines of the transferring handler's current certified
 * form 1 move: a credit on its invoice, the same pounds assumed on the receiver's.
 */
export interface MovedLine {
  direction: 'assumed' | 'credited';
  counterparty_id: string;
  counterparty_name: string;
  counterparty_number: string;
  pecan_type: PecanType;
  pounds: number;
  /** Mills a pound for the period's rate; a credit's mills are negative. */
  mills: bigint;
}

export const parseTransferLines = (v: unknown): TransferRow[] =>
  (typeof v === 'string' ? JSON.parse(v) : (v ?? [])) as TransferRow[];

/** The lines moved onto (assumed) or off (credited) a handler's invoice for a period. */
export async function movedLines(a: Actor, handlerId: string, period: Row): Promise<MovedLine[]> {
  const rate = assessmentRateFor(String(period.period_month));
  const credited = await movedBy(a, 'transferring', handlerId, period);
  const assumed = await movedBy(a, 'receiving', handlerId, period);
  const line = (direction: MovedLine['direction'], other: Row, row: TransferRow): MovedLine => {
    const mills = BigInt(row.pounds) * BigInt(rate.millsPerPound[row.pecan_type]);
    return {
      direction,
      counterparty_id: String(other.id),
      counterparty_name: String(other.title),
      counterparty_number: String(other.handler_number),
      pecan_type: row.pecan_type,
      pounds: row.pounds,
      mills: direction === 'credited' ? -mills : mills,
    };
  };
  return [
    ...credited.flatMap(({ other, rows }) => rows.map((r) => line('credited', other, r))),
    ...assumed.flatMap(({ other, rows }) => rows.map((r) => line('assumed', other, r))),
  ];
}

/**
 * The agreements naming the receiver responsible in which the handler is `side`, with the transferring handler's
 * lines to the receiver in its current certified form 1 of the period.
 */
async function movedBy(a: Actor, side: 'transferring' | 'receiving', handlerId: string, period: Row) {
  const other = side === 'transferring' ? 'receiving_handler_id' : 'transferring_handler_id';
  const agreements = (await dbOf(a)
    .selectFrom('apc_form_4 as g')
    .innerJoin('handlers as h', 'h.id', `g.${other}`)
    .select(['g.transferring_handler_id', 'g.receiving_handler_id', 'h.id', 'h.title', 'h.handler_number'])
    .where(`g.${side}_handler_id`, '=', handlerId)
    .where('g.season_id', '=', period.season_id as string)
    .where('g.form_activity', '=', 'active')
    .where('g.form_status', '=', 'certified')
    .where('g.receiving_certification_datetime', 'is not', null)
    .where('g.responsible_handler', '=', 'receiving')
    .orderBy('h.handler_number')
    .execute()) as Row[];
  const result: { other: Row; rows: TransferRow[] }[] = [];
  for (const g of agreements) {
    const rows = (await shipmentLines(a, String(g.transferring_handler_id), String(period.id))).filter(
      (r) => r.receiving_handler === g.receiving_handler_id && r.pounds > 0,
    );
    if (rows.length > 0) result.push({ other: g, rows });
  }
  return result;
}

/** The shipment lines of a handler's current certified form 1 of a period (none: no certified form). */
export async function shipmentLines(a: Actor, handlerId: string, periodId: string): Promise<TransferRow[]> {
  const form = await dbOf(a)
    .selectFrom('apc_form_1')
    .select('interhandler_shipments')
    .where('handler_id', '=', handlerId)
    .where('period_id', '=', periodId)
    .where('form_status', '=', 'certified')
    .executeTakeFirst();
  return form ? parseTransferLines(form.interhandler_shipments) : [];
}

/** The periods of a season in which the transferring handler's current certified form 1 ships to the receiver. */
export async function periodsWithShipments(
  a: Actor,
  transferring: string,
  receiving: string,
  seasonId: string,
): Promise<string[]> {
  const forms = (await dbOf(a)
    .selectFrom('apc_form_1 as f')
    .innerJoin('reporting_periods as p', 'p.id', 'f.period_id')
    .select(['f.period_id', 'f.interhandler_shipments'])
    .where('f.handler_id', '=', transferring)
    .where('f.form_status', '=', 'certified')
    .where('p.season_id', '=', seasonId)
    .execute()) as Row[];
  return forms
    .filter((f) => parseTransferLines(f.interhandler_shipments).some((r) => r.receiving_handler === receiving))
    .map((f) => String(f.period_id));
}

/** Each line names an active handler other than the form's own (422 on field_interhandler_shipments otherwise). */
export async function assertReceivers(a: Actor, handlerId: unknown, value: unknown): Promise<void> {
  const ids = [...new Set(parseTransferLines(value).map((l) => l.receiving_handler))];
  const field = 'field_interhandler_shipments';
  const refuse = (message: string) =>
    new ApiError(422, `${field}: ${message}`, { source: { pointer: `/data/attributes/${field}` } });
  if (ids.includes(String(handlerId))) throw refuse('a handler does not transfer to itself.');
  if (ids.length === 0) return;
  const active = await dbOf(a)
    .selectFrom('handlers')
    .select('id')
    .where('id', 'in', ids)
    .where('handler_status', '=', 'active')
    .execute();
  if (active.length !== ids.length) throw refuse('every receiving handler must be an active handler.');
}
