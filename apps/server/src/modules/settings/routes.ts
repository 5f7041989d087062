import { savedSettingsResponse, settingsResponse, settingsUpdateSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { readSettings, updateSettings } from './service';

export function settingsRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/settings', {
    // Read by every app at start; only the caller's usertype is read (issue 21 point 1).
    config: { access: 'public', sessionCache: true },
    schema: { summary: 'Settings: the public ones, or every setting for admins', response: { 200: settingsResponse } },
  }, async (request) => ({ settings: await readSettings(ctx, request.actor?.usertype ?? null, request.log) }));

  app.patch('/api/settings', {
    config: { access: ADMIN },
    schema: { summary: 'Save settings (section 5)', body: settingsUpdateSchema, response: { 200: savedSettingsResponse } },
  }, async (request) => ({ settings: await updateSettings(ctx, actorOf(request), request.body) }));
}
