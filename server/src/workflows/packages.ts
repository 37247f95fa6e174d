import { dbOf, insertNode, loadRow, type Actor } from './common.js';
import { periodTitle } from './period-title.js';

export const MONTHLY_FORMS = ['apc_form_1', 'apc_form_2', 'apc_form_3'] as const;
export type MonthlyForm = (typeof MONTHLY_FORMS)[number];

export const FORM_TITLES: Record<MonthlyForm | 'apc_form_4' | 'apc_form_5', string> = {
  apc_form_1: 'Form 1 Summary Report',
  apc_form_2: 'Form 2 Pecans Purchased Outside the US',
  apc_form_3: 'Form 3 Exports by Country',
  apc_form_4: 'Form 4 Inter-Handler Transfer',
  apc_form_5: 'Form 5 Year-End Inventory',
};

/** A handler's package for a month, with the first (draft) version of forms 1, 2 and 3. */
export async function createDraftPackage(a: Actor, handlerId: string, periodId: string): Promise<string> {
  const handler = await loadRow(dbOf(a), 'handlers', handlerId);
  const period = await loadRow(dbOf(a), 'reporting_periods', periodId);
  const month = String(period.period_month);
  const packageId = await insertNode(a, 'reporting_forms_packages', {
    title: `Reporting Forms Package-${String(handler.handler_number)}-${month}`,
    handler_id: handlerId,
    period_id: periodId,
  });
  for (const form of MONTHLY_FORMS) {
    await insertNode(a, form, {
      title: `${FORM_TITLES[form]}-${String(handler.handler_number)}-${periodTitle(month)}`,
      package_id: packageId,
      handler_id: handlerId,
      period_id: periodId,
      form_status: 'draft',
      amendment_number: 0,
    });
  }
  return packageId;
}
