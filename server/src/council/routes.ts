import { isIsoDate, isPeriodMonth } from '@pecan/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { asStaff, bodyOf, MAX_ID_LENGTH, pathParam, type Body, type FieldProblem } from './http.js';
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
 * The council staff's operations: open a month, generate and publish position reports and analytics, record
 * invoice payments. Plain JSON in and out (application/json); errors are JSON:API error documents. Every call is
 * one transaction; handler users get 403 whatever they send.
 */

const MAX_REFERENCE_LENGTH = 255;

const periodMonthField = (body: Body, problems: FieldProblem[]): void => {
  if (body.period_month === undefined)
    problems.push({
      field: 'period_month',
      detail: 'period_month is required: a month written YYYY-MM, such as "2026-10".',
    });
  else if (!isPeriodMonth(body.period_month))
    problems.push({
      field: 'period_month',
      detail: 'period_month must be a month written YYYY-MM, such as "2026-10".',
    });
};

const idField =
  (name: string) =>
  (body: Body, problems: FieldProblem[]): void => {
    const v = body[name];
    if (v === undefined) problems.push({ field: name, detail: `${name} is required.` });
    else if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_ID_LENGTH)
      problems.push({ field: name, detail: `${name} must be the id (a string) of a record.` });
  };

const booleanField =
  (name: string) =>
  (body: Body, problems: FieldProblem[]): void => {
    if (typeof body[name] !== 'boolean')
      problems.push({ field: name, detail: `${name} is required and must be true or false.` });
  };

const paidFields = (body: Body, problems: FieldProblem[]): void => {
  if (body.paid_date === undefined)
    problems.push({ field: 'paid_date', detail: 'paid_date is required: the payment date written YYYY-MM-DD.' });
  else if (!isIsoDate(body.paid_date))
    problems.push({
      field: 'paid_date',
      detail: 'paid_date must be a calendar date written YYYY-MM-DD, such as "2026-11-20".',
    });
  const ref = body.reference;
  if (ref !== undefined && ref !== null && (typeof ref !== 'string' || ref.length > MAX_REFERENCE_LENGTH)) {
    problems.push({
      field: 'reference',
      detail: `reference must be text of at most ${MAX_REFERENCE_LENGTH} characters, or null.`,
    });
  }
};

const pathId = (request: FastifyRequest): string => pathParam(request);

export function registerCouncilRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The council console (see docs/COUNCIL-API.md).
  registerUserRoutes(app, ctx);
  registerSeasonRoutes(app, ctx);
  registerBoardRoutes(app, ctx);
  registerInvoiceRoutes(app, ctx);
  registerReminderRoutes(app, ctx);
  registerRemindNowRoutes(app, ctx);
  registerStaffHomeRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerPublicationRoutes(app, ctx);

  app.post('/api/council/periods', async (request, reply) => {
    const result = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['period_month'], periodMonthField),
      (a, body) => openPeriod(a, String(body.period_month)),
    );
    return reply.code(201).send({ period_id: result.periodId, packages_created: result.packagesCreated });
  });

  app.post('/api/council/reports/monthly', async (request, reply) => {
    const r = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['period_month'], periodMonthField),
      (a, body) => generateMonthlyPositionReport(a, String(body.period_month)),
    );
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--monthly_position_report',
      id: r.id,
      period_id: r.periodId,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
      publish_to_portal: r.publishToPortal,
    });
  });

  app.post('/api/council/reports/monthly/:id/publish', async (request, reply) => {
    const id = pathId(request);
    const publish = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['publish'], booleanField('publish')),
      async (a, body) => {
        await publishMonthlyPositionReport(a, id, body.publish as boolean);
        return body.publish as boolean;
      },
    );
    return reply.code(200).send({ type: 'node--monthly_position_report', id, publish_to_portal: publish });
  });

  // A revision of published figures (docs/DISCLOSURE-CONTROL.md): the month's or the season's current certified
  // versions, planned against everything published before; the report is rendered again from it.
  app.post('/api/council/reports/monthly/revision', async (request, reply) => {
    const r = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['period_month'], periodMonthField),
      (a, body) => reviseMonthlyPositionReport(a, String(body.period_month)),
    );
    return reply.code(200).send({
      type: 'node--monthly_position_report',
      id: r.id,
      period_id: r.periodId,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
      publish_to_portal: r.publishToPortal,
    });
  });

  app.post('/api/council/reports/annual/revision', async (request, reply) => {
    const r = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['season_id'], idField('season_id')),
      (a, body) => generateAnnualPositionReport(a, String(body.season_id), { revise: true }),
    );
    return reply
      .code(200)
      .send({ type: 'node--annual_position_report', id: r.id, file_id: r.fileId, handlers_count: r.handlersCount });
  });

  app.post('/api/council/reports/annual', async (request, reply) => {
    const r = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['season_id'], idField('season_id')),
      (a, body) => generateAnnualPositionReport(a, String(body.season_id)),
    );
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--annual_position_report',
      id: r.id,
      file_id: r.fileId,
      handlers_count: r.handlersCount,
    });
  });

  app.post('/api/council/analytics/industry', async (request, reply) => {
    const r = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['season_id'], idField('season_id')),
      (a, body) => generateIndustryAnalytics(a, String(body.season_id)),
    );
    return reply.code(r.created ? 201 : 200).send({
      type: 'node--industry_analytics',
      id: r.id,
      file_id: r.fileId,
      published_date: r.publishedDate,
    });
  });

  app.post('/api/council/analytics/handlers', async (request, reply) => {
    const seasonId = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['season_id'], idField('season_id')),
      async (a, body) => {
        const list = await generateAllHandlerAnalytics(a, String(body.season_id));
        return { seasonId: String(body.season_id), list };
      },
    );
    return reply.code(200).send({
      season_id: seasonId.seasonId,
      handler_analytics: seasonId.list.map((r) => ({
        type: 'node--handler_analytics',
        id: r.id,
        handler_id: r.handlerId,
        file_id: r.fileId,
        created: r.created,
      })),
    });
  });

  app.post('/api/council/invoices/:id/paid', async (request, reply) => {
    const id = pathId(request);
    const body = await asStaff(
      ctx,
      request,
      () => bodyOf(request, ['paid_date', 'reference'], paidFields),
      async (a, b) => {
        const reference = typeof b.reference === 'string' && b.reference.trim() !== '' ? b.reference.trim() : null;
        await markInvoicePaid(a, id, String(b.paid_date), reference);
        return { paid_date: String(b.paid_date), reference };
      },
    );
    return reply.code(200).send({
      type: 'node--invoice',
      id,
      invoice_status: 'paid',
      paid_date: body.paid_date,
      paid_reference: body.reference,
    });
  });
}
