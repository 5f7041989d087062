import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { readSettings, updateSettings } from './service';

export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/settings', async (request) => ({ settings: await readSettings(ctx, request.actor?.usertype ?? null) }));
  app.patch('/api/settings', async (request) => ({ settings: await updateSettings(ctx, request.body) }));
}
