import {
  adminRefundSchema,
  bookingPaymentsResponse,
  dashboardRefundConfirmationSchema,
  htmlPage,
  idParams,
  numericIdParams,
  okResponseSchema,
  paymentEventsQuery,
  paymentEventsResponse,
  paymentProvidersAdminResponse,
  savedCardsResponse,
  topupRequestSchema,
  topupResponse,
} from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, type RouteApp } from '../../http/routing';
import { bookingReceipt } from '../bookings';
import { bookingPayments, latestPaymentEvents, providersForAdmin, refundBookingByAdmin } from './admin';
import { listCards, removeCard } from './cards';
import { confirmDashboardRefund } from './dashboard-refunds';
import { startTopup } from './topups';

/** Issue 18's routes around the checkout: top-ups, cards on file, refunds, receipts and the admins' payments page. */
export function paymentAccountRoutes(app: RouteApp, ctx: AppContext): void {
  app.post('/api/wallet/topup', {
    config: { access: ['rider'], idempotent: true },
    schema: { summary: "Start a wallet top-up by card (credited on the provider's confirmation only); the form to post to the provider's checkout", body: topupRequestSchema, response: { 200: topupResponse } },
  }, async (request) => startTopup(ctx, actorOf(request), request.body));

  app.get('/api/me/cards', {
    config: { access: ['rider'] },
    schema: { summary: 'The own cards on file (brand, last 4 digits, expiry; never a number)', response: { 200: savedCardsResponse } },
  }, async (request) => listCards(ctx, actorOf(request)));

  app.delete('/api/me/cards/:id', {
    config: { access: ['rider'] },
    schema: { summary: 'Remove an own card on file (and at the provider)', params: numericIdParams, response: { 200: okResponseSchema } },
  }, async (request) => removeCard(ctx, actorOf(request), request.params.id));

  app.post('/api/bookings/:id/refunds', {
    config: { access: ADMIN, idempotent: true },
    schema: { summary: 'Refund a paid trip in part or in full, with a reason (card: through its provider; wallet: to the wallet)', params: idParams, body: adminRefundSchema, response: { 200: bookingPaymentsResponse } },
  }, async (request) => refundBookingByAdmin(ctx, actorOf(request), request.params.id, request.body));

  app.post('/api/refunds/:id/dashboard-confirmation', {
    config: { access: ADMIN },
    schema: {
      summary: "Record a refund an admin made in the payment provider's dashboard (a provider whose API makes no refunds here), with the provider's refund reference; once",
      params: numericIdParams,
      body: dashboardRefundConfirmationSchema,
      response: { 200: bookingPaymentsResponse },
    },
  }, async (request) => confirmDashboardRefund(ctx, actorOf(request), request.params.id, request.body));

  app.get('/api/bookings/:id/payments', {
    config: { access: ['rider', 'admin'] },
    schema: { summary: "The booking's payments and refunds, and what may still be refunded", params: idParams, response: { 200: bookingPaymentsResponse } },
  }, async (request) => bookingPayments(ctx, actorOf(request), request.params.id));

  app.get('/api/bookings/:id/receipt', {
    config: { access: ['rider', 'admin'] },
    schema: { summary: "A paid trip's receipt (HTML), as mailed at PAID, with refunds since", params: idParams, response: { 200: htmlPage } },
  }, async (request, reply) => reply.type('text/html; charset=utf-8').send(await bookingReceipt(ctx, actorOf(request), request.params.id)));

  app.get('/api/payments/providers', {
    config: { access: ADMIN },
    schema: { summary: 'The payment providers in force: test or live mode, and the webhook URL to paste into each dashboard', response: { 200: paymentProvidersAdminResponse } },
  }, async () => providersForAdmin(ctx));

  app.get('/api/payments/events', {
    config: { access: ADMIN },
    schema: { summary: "The latest payment notifications, lookups and completions, with the platform's outcome", querystring: paymentEventsQuery, response: { 200: paymentEventsResponse } },
  }, async (request) => latestPaymentEvents(ctx, request.query.limit));
}
