import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../lib/errors.js';
import { demoCredentials } from './load.js';

/** GET /api/demo-credentials: what the sign-in page shows when this database holds the demo data set. */
export async function registerDemoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/demo-credentials', async () => {
    const credentials = ctx.config.demoData ? await demoCredentials(ctx) : null;
    if (!credentials) throw new ApiError(404, 'This portal has no demo data.');
    return credentials;
  });
}
