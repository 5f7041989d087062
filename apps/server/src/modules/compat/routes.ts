import { fieldOf } from '@rideway/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { register } from '../auth/service';
import { languageMap } from '../languages/service';
import { checkUserExists, paymentProviders, sendToToken, validateReferrer } from './service';

/** The section 7 server calls, at their paths and with their payloads, mapped onto the same services. */
export function compatRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/check_user_exists', (request) => checkUserExists(ctx, request.body));
  app.post('/user_signup', async (request) => ({ uid: (await register(ctx, fieldOf(request.body, 'regData'))).id }));
  app.post('/validate_referrer', (request) => validateReferrer(ctx, request.body));
  app.get('/get_providers', () => paymentProviders());
  app.get('/get_languages', () => languageMap(ctx.db));
  app.post('/send_notification', (request) => sendToToken(ctx, request.body));
}
