import {
  checkUserExistsRequestSchema,
  checkUserExistsResponse,
  languageMapQuery,
  languageMapResponse,
  providersResponse,
  sendNotificationRequestSchema,
  sendNotificationResponse,
  userSignupRequestSchema,
  userSignupResponse,
  validateReferrerRequestSchema,
  validateReferrerResponse,
} from '@rideway/contract';
import type { AppContext } from '../../context';
import { ADMIN, type RouteApp } from '../../http/routing';
import { register } from '../auth/service';
import { languageMap } from '../languages/service';
import { checkUserExists, paymentProviders, sendToToken, validateReferrer } from './service';

/** The section 7 server calls, at their paths and with their payloads, mapped onto the same services. */
export function compatRoutes(app: RouteApp, ctx: AppContext): void {
  app.post('/check_user_exists', {
    config: { access: 'public' },
    schema: { summary: 'Which of an email and a mobile already have an account', body: checkUserExistsRequestSchema, response: { 200: checkUserExistsResponse } },
  }, (request) => checkUserExists(ctx, request.body));

  app.post('/user_signup', {
    config: { access: 'public' },
    schema: { summary: 'Register from regData, as POST /api/auth/register; answers the uid', body: userSignupRequestSchema, response: { 200: userSignupResponse } },
  }, async (request) => ({ uid: (await register(ctx, request.body.regData)).id }));

  app.post('/validate_referrer', {
    config: { access: 'public' },
    schema: { summary: 'The uid behind a referral id', body: validateReferrerRequestSchema, response: { 200: validateReferrerResponse } },
  }, (request) => validateReferrer(ctx, request.body));

  app.get('/get_providers', {
    config: { access: 'public' },
    schema: { summary: 'The payment providers in force', response: { 200: providersResponse } },
  }, () => paymentProviders(ctx));

  app.get('/get_languages', {
    config: { access: 'public' },
    schema: { summary: 'Every language file by code, the default first (?messages=es: the messages of those and of the default only)', querystring: languageMapQuery, response: { 200: languageMapResponse } },
  }, (request) => languageMap(ctx.db, request.query.messages?.split(',')));

  app.post('/send_notification', {
    config: { access: ADMIN },
    schema: { summary: 'A push to the user holding a push token: token, title, msg, screen?', body: sendNotificationRequestSchema, response: { 200: sendNotificationResponse } },
  }, (request) => sendToToken(ctx, request.body));
}
