import type { ResourceDef } from '../jsonapi/resource.js';
import { handler, handlerPacketConfirmation, pecanVariety, reportingPeriod, season, user } from './core.js';
import {
  annualPositionReport,
  handlerAnalytics,
  industryAnalytics,
  invoice,
  monthlyPositionReport,
} from './documents.js';
import { fileResource } from './files.js';
import {
  exportByCountry,
  form1,
  form2,
  form3,
  form4,
  form5,
  pecansPurchasedNonUs,
  reportingFormsPackage,
} from './forms.js';
import { guardedWrites } from './write-guard.js';
import {
  form4Writes,
  form5Writes,
  handlerWrites,
  monthlyFormWrites,
  packageWrites,
  packetConfirmationWrites,
  staffWrites,
  subRecordWrites,
  userWrites,
} from './writes.js';

/** The types that own files: a file is readable exactly when its owner is. */
const fileOwners = [
  form1,
  form2,
  form3,
  form4,
  form5,
  invoice,
  monthlyPositionReport,
  annualPositionReport,
  industryAnalytics,
  handlerAnalytics,
];

const declared: ResourceDef[] = [
  { ...season, writes: staffWrites },
  { ...reportingPeriod, writes: staffWrites },
  { ...handler, writes: handlerWrites },
  { ...handlerPacketConfirmation, writes: packetConfirmationWrites },
  { ...user, writes: userWrites },
  { ...pecanVariety, writes: staffWrites },
  { ...reportingFormsPackage, writes: packageWrites },
  { ...form1, writes: monthlyFormWrites('apc_form_1') },
  { ...form2, writes: monthlyFormWrites('apc_form_2') },
  { ...form3, writes: monthlyFormWrites('apc_form_3') },
  { ...form4, writes: form4Writes },
  { ...form5, writes: form5Writes },
  { ...pecansPurchasedNonUs, writes: subRecordWrites('pecans_purchased_non_us') },
  { ...exportByCountry, writes: subRecordWrites('export_by_country') },
  invoice,
  monthlyPositionReport,
  annualPositionReport,
  industryAnalytics,
  handlerAnalytics,
  fileResource(fileOwners),
];

/** Every type, its writes behind the write policy (write-policy.ts): no write reaches a workflow unchecked. */
const tables = new Map(declared.map((d) => [d.type, d.table]));
export const allResources: ResourceDef[] = declared.map((d) =>
  d.writes ? { ...d, writes: guardedWrites(d, d.writes, tables) } : d,
);
