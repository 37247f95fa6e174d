import { toApiError } from '../../../lib/http/errors';
import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';
import { getAccessToken } from '../../../lib/session/session';

export const fetchIndustryAnalytics = (signal?: AbortSignal) =>
  jsonApi.getAll('/jsonapi/node/industry_analytics', new DrupalJsonApiParams().addInclude(['field_industry_analytics_xlsx', 'field_season']).addPageLimit(100), signal);

export const fetchOwnAnalytics = (handlerId: string, signal?: AbortSignal) =>
  jsonApi.getOne(
    `/jsonapi/node/handler/${encodeURIComponent(handlerId)}`,
    new DrupalJsonApiParams().addInclude(['field_handler_analytics', 'field_handler_analytics.field_analytics_xlsx', 'field_handler_analytics.field_season']).addFields('node--handler', ['title', 'field_handler_analytics']),
    signal,
  );

/** The handler's own certified form 1 figures of the given seasons (for the charts). */
export function form1FiguresParams(handlerId: string, seasonIds: string[]) {
  return new DrupalJsonApiParams()
    .addFilter('field_form_status', 'certified')
    .addFilter('field_handler.id', handlerId)
    .addFilter('field_reporting_period.field_season.id', seasonIds, 'IN')
    .addFields('node--apc_form_1', ['field_receipts_total', 'field_shipments_total', 'field_inventory_inshell', 'field_reporting_period'])
    .addFields('node--reporting_period', ['field_period_month', 'field_season'])
    .addInclude(['field_reporting_period'])
    .addPageLimit(100);
}

export const fetchForm1Figures = (handlerId: string, seasonIds: string[], signal?: AbortSignal) =>
  jsonApi.getAll('/jsonapi/node/apc_form_1', form1FiguresParams(handlerId, seasonIds), signal);

/** One industry figure: null when the month is not published yet or the figure is withheld (fewer than 3 handlers). */
export interface IndustryFigure { value: number | null; withheld: boolean }
export interface IndustryMonth {
  month: string;
  published: boolean;
  receipts_improved_native: IndustryFigure;
  shipments_total: IndustryFigure;
  inventory_inshell: IndustryFigure;
}

/** GET /api/analytics/industry-monthly?season_id=: the industry's published monthly figures of a season. */
export async function fetchIndustryMonthly(seasonId: string, signal?: AbortSignal): Promise<IndustryMonth[]> {
  const token = await getAccessToken();
  const response = await fetch(`/api/analytics/industry-monthly?season_id=${encodeURIComponent(seasonId)}`, {
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    signal,
  });
  if (!response.ok) throw await toApiError(response);
  return ((await response.json()) as { months: IndustryMonth[] }).months;
}
