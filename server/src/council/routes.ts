import { invoicePaidBody, periodMonthBody, publishBody, seasonIdBody } from '@pecan/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { registerAccountRequestRoutes } from '../accounts/routes.js';
import { registerCouncilApiClientRoutes } from '../api-clients/routes.js';
import { asStaff, bodyOf, pathParam, requireStaff } from './http.js';
import { registerAuditRoutes } from './audit.js';
import { registerBoardRoutes } from './board.js';
import { registerInvoiceRoutes } from './invoices.js';
import { registerPublicationRoutes } from './publications.js';
import { registerReminderRoutes } from './reminders.js';
import { registerRemindNowRoutes } from './remind-now.js';
import { registerStaffHomeRoutes } from './staff-home.js';
import { registerSeasonRoutes } from './seasons.js';
import { registerUserRoutes } from './users.js';
import { markInvoicePaid } from '../workflows/invoices.js';
import { openPeriod } from '../workflows/seasons.js';
import {
  generateAllHandlerAnalytics,
  generateAnnualPositionReport,
  generateIndustryAnalytics,
  generateMonthlyPositionReport,
  publishMonthlyPositionReport,
  reviseMonthlyPositionReport,
} from '../workflows/reports/index.js';

/**
 * The council staff's endpoints, all under `/api/council` in one Fastify plugin whose one hook lets in only staff
 * (401 without a token, 403 for anyone else, whatever they send), so no route checks it again. Plain JSON in and
 * out (application/json), bodies and queries checked by the contract's schemas; errors are JSON:API error
 * documents. Every write is one transaction.
 */
const COUNCIL_PREFIX = '/api/council';

const pathId = (request: FastifyRequest): string => pathParam(request);

export async function registerCouncilRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(
    async (council) => {
      council.addHook('onRequest', requireStaff(ctx));
      registerCouncilOperations(council, ctx);
    },
    { prefix: COUNCIL_PREFIX },
  );
}

/** The council console (see docs/COUNCIL-API.md); paths are under the council prefix. */
function registerCouncilOperations(app: FastifyInstance, ctx: AppContext): void {
  registerUserRoutes(app, ctx);
  registerSeasonRoutes(app, ctx);
  registerBoardRoutes(app, ctx);
  registerInvoiceRoutes(app, ctx);
  registerReminderRoutes(app, ctx);
  registerRemindNowRoutes(app, ctx);
  registerStaffHomeRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerPublicationRoutes(app, ctx);
  registerAccountRequestRoutes(app, ctx);
  registerCouncilApiClientRoutes(app, ctx);

  app.post('/periods', async (request, reply) => {
    const { period_month } = bodyOf(request, periodMonthBody);
    const result = await asStaff(ctx, request, (a) => openPeriod(a, period_month));
    return reply.code(201).send({ period_id: result.periodId, packages_created: result.packagesCreated });
  });

  app.post('/reports/monthly', async (request, reply) => {
    const { period_month } = bodyOf(request, periodMonthBody);
    const r = await asStaff(ctx, request, (a) => generateMonthlyPositionReport(a, period_month));
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--monthly_position_report',
      id: r.id,
      period_id: r.periodId,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
      publish_to_portal: r.publishToPortal,
    });
  });

  app.post('/reports/monthly/:id/publish', async (request, reply) => {
    const id = pathId(request);
    const { publish } = bodyOf(request, publishBody);
    await asStaff(ctx, request, (a) => publishMonthlyPositionReport(a, id, publish));
    return reply.code(200).send({ type: 'node--monthly_position_report', id, publish_to_portal: publish });
  });

  // A revision of published figures (docs/DISCLOSURE-CONTROL.md): the month's or the season's current certified
  // versions, planned against everything published before; the report is rendered again from it.
  app.post('/reports/monthly/revision', async (request, reply) => {
    const { period_month } = bodyOf(request, periodMonthBody);
    const r = await asStaff(ctx, request, (a) => reviseMonthlyPositionReport(a, period_month));
    return reply.code(200).send({
      type: 'node--monthly_position_report',
      id: r.id,
      period_id: r.periodId,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
      publish_to_portal: r.publishToPortal,
    });
  });

  app.post('/reports/annual/revision', async (request, reply) => {
    const { season_id } = bodyOf(request, seasonIdBody);
    const r = await asStaff(ctx, request, (a) => generateAnnualPositionReport(a, season_id, { revise: true }));
    return reply
      .code(200)
      .send({ type: 'node--annual_position_report', id: r.id, file_id: r.fileId, handlers_count: r.handlersCount });
  });

  app.post('/reports/annual', async (request, reply) => {
    const { season_id } = bodyOf(request, seasonIdBody);
    const r = await asStaff(ctx, request, (a) => generateAnnualPositionReport(a, season_id));
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--annual_position_report',
      id: r.id,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
    });
  });

  app.post('/analytics/industry', async (request, reply) => {
    const { season_id } = bodyOf(request, seasonIdBody);
    const r = await asStaff(ctx, request, (a) => generateIndustryAnalytics(a, season_id));
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--industry_analytics',
      id: r.id,
      file_id: r.fileId,
      published_date: r.publishedDate,
    });
  });

  app.post('/analytics/handlers', async (request, reply) => {
    const { season_id } = bodyOf(request, seasonIdBody);
    const list = await asStaff(ctx, request, (a) => generateAllHandlerAnalytics(a, season_id));
    return reply.code(200).send({
      season_id,
      handler_analytics: list.map((r) => ({
        type: 'node--handler_analytics',
        id: r.id,
        handler_id: r.handlerId,
        file_id: r.fileId,
        created: r.created,
      })),
    });
  });

  app.post('/invoices/:id/paid', async (request, reply) => {
    const id = pathId(request);
    const { paid_date, reference } = bodyOf(request, invoicePaidBody);
    await asStaff(ctx, request, (a) => markInvoicePaid(a, id, paid_date, reference));
    return reply.code(200).send({
      type: 'node--invoice',
      id,
      invoice_status: 'paid',
      paid_date,
      paid_reference: reference,
    });
  });
}
