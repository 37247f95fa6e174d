import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { portalDb } from '../db/portal-tables.js';
import { authenticate } from '../oauth/bearer.js';
import { ApiError } from '../lib/errors.js';
import { rulesFromEnv } from '../workflows/reports/disclosure/rules.js';
import { industryMonthlyFigures } from './industry-monthly.js';

/** GET /api/analytics/industry-monthly?season_id=: the industry's published monthly figures, for any signed-in user. */
export async function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A wrong DISCLOSURE_*_PERCENT stops the server at start-up with its message, not a publication later.
  rulesFromEnv();
  app.get<{ Querystring: { season_id?: string } }>('/api/analytics/industry-monthly', async (request) => {
    await authenticate(ctx, request, true);
    const seasonId = request.query.season_id;
    if (typeof seasonId !== 'string' || seasonId === '') {
      throw new ApiError(422, 'Name the season: season_id.', { source: { parameter: 'season_id' } });
    }
    const season = await ctx.db.selectFrom('seasons').select('id').where('id', '=', seasonId).executeTakeFirst();
    if (!season) throw new ApiError(422, 'There is no such season.', { source: { parameter: 'season_id' } });
    return { season_id: seasonId, months: await industryMonthlyFigures(portalDb(ctx.db), seasonId) };
  });
}
