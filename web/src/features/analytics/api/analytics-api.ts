import { api } from '../../../lib/http/json';
import { jsonApi } from '../../../lib/jsonapi/client';
import type { ApiEntity } from '../../../lib/portal/entities';
import { form1FiguresParams, industryAnalyticsParams, ownAnalyticsParams } from './analytics-params';

/** A workbook: the industry's, or one of the handler's own. */
export type AnalyticsWorkbook = ApiEntity<'node--industry_analytics' | 'node--handler_analytics'>;
/** A form 1 as the charts read it: the month's figures and its reporting period. */
export type Form1Figures = ApiEntity<'node--apc_form_1'>;

export const analyticsKeys = {
  industry: ['industry-analytics', 'with-season'] as const,
  own: (handlerId: string) => ['handler-analytics', handlerId] as const,
  form1Figures: (handlerId: string, seasonIds: string[]) => ['own-form1-figures', handlerId, ...seasonIds] as const,
  industryMonthly: (seasonId: string | undefined) => ['industry-monthly', seasonId] as const,
};

export const fetchIndustryAnalytics = (signal?: AbortSignal) =>
  jsonApi.getAll<ApiEntity<'node--industry_analytics'>>(
    '/jsonapi/node/industry_analytics',
    industryAnalyticsParams(),
    signal,
  );

export const fetchOwnAnalytics = (handlerId: string, signal?: AbortSignal) =>
  jsonApi.getOne<ApiEntity<'node--handler'>>(
    `/jsonapi/node/handler/${encodeURIComponent(handlerId)}`,
    ownAnalyticsParams(),
    signal,
  );

export const fetchForm1Figures = (handlerId: string, seasonIds: string[], signal?: AbortSignal) =>
  jsonApi.getAll<Form1Figures>('/jsonapi/node/apc_form_1', form1FiguresParams(handlerId, seasonIds), signal);

/** One industry figure: null when the month is not published yet or the figure is withheld (fewer than 3 handlers). */
export interface IndustryFigure {
  value: number | null;
  withheld: boolean;
}
export interface IndustryMonth {
  month: string;
  published: boolean;
  receipts_improved_native: IndustryFigure;
  shipments_inshell: IndustryFigure;
  inventory_inshell: IndustryFigure;
}

/** GET /api/analytics/industry-monthly?season_id=: the industry's published monthly figures of a season. */
export async function fetchIndustryMonthly(seasonId: string, signal?: AbortSignal): Promise<IndustryMonth[]> {
  const body = await api.get<{ months: IndustryMonth[] }>('/api/analytics/industry-monthly', {
    params: { season_id: seasonId },
    signal,
  });
  return body.months;
}
