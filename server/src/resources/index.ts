import type { AppContext } from '../context.js';
import type { ResourceDef, Row } from '../jsonapi/resource.js';
import { handler, handlerPacketConfirmation, pecanVariety, reportingPeriod, season, user } from './core.js';
import { annualPositionReport, handlerAnalytics, industryAnalytics, invoice, monthlyPositionReport } from './documents.js';
import { fileResource, fileUri } from './files.js';
import { exportByCountry, form1, form2, form3, form4, form5, pecansPurchasedNonUs, reportingFormsPackage } from './forms.js';

/** The types that own files: a file is readable exactly when its owner is. */
const fileOwners = [form1, form2, form3, form4, form5, invoice, monthlyPositionReport, annualPositionReport, industryAnalytics, handlerAnalytics];

export const allResources: ResourceDef[] = [
  season, reportingPeriod, handler, handlerPacketConfirmation, user, pecanVariety,
  reportingFormsPackage, form1, form2, form3, form4, form5, pecansPurchasedNonUs, exportByCountry,
  invoice, monthlyPositionReport, annualPositionReport, industryAnalytics, handlerAnalytics,
  fileResource(fileOwners),
];

export function computedAttributes(ctx: AppContext, def: ResourceDef, row: Row, baseUrl: string): Record<string, unknown> {
  return def.type === 'file--file' ? fileUri(ctx, row, baseUrl) : {};
}
