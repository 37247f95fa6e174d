import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

export async function registerOAuthRoutes(_app: FastifyInstance, _ctx: AppContext): Promise<void> {}
