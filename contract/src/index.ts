export * from './forms/fields.js';
export * from './forms/limits.js';
export * from './forms/attribute-names.js';
export * from './forms/value-schemas.js';
export * from './forms/form-schemas.js';
export * from './forms/validate.js';
export * from './forms/certification.js';
export * from './forms/certification-statement.js';
export * from './forms/api-values.js';
export * from './forms/export-countries.js';

export * from './money/parse-result.js';
export * from './money/rounding.js';
export * from './money/fixed-point.js';
export * from './money/money.js';
export * from './money/ratio.js';
export * from './money/price.js';
export * from './money/allocate.js';

export * from './calendar/iso-date.js';
export * from './calendar/holidays.js';
export * from './calendar/business-days.js';
export * from './calendar/seasons.js';
export * from './calendar/due-dates.js';

export * from './assessment/rates.js';
export * from './assessment/assessment-due.js';

export * from './compute/sum.js';
export * from './compute/form-1.js';
export * from './compute/form-1-stale.js';
export * from './compute/form-2.js';
export * from './compute/form-3.js';
export * from './compute/form-5.js';

export * from './reference/countries.js';
export * from './reference/varieties.js';

export * from './api/council.js';
export * from './api/council-requests.js';

export * from './accounts/password.js';

// Types only (generated from the server's resource registry): nothing of it reaches a bundle.
export type * from './entities/generated.js';
