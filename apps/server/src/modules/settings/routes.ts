import { settingsSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { readSettings, updateSettings } from './service';

export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/settings', withSummary('Settings: the public subset, or all for admins'), async (request) => ({ settings: await readSettings(ctx, request.actor?.usertype ?? null) }));
  app.patch('/api/settings', withBody('Save settings (section 5)', settingsSchema.partial()), async (request) => ({ settings: await updateSettings(ctx, request.body) }));
}
