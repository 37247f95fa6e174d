import { DrupalJsonApiParams, jsonApi } from '../../../lib/jsonapi/client';

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
