import { walletCreditResponse, walletCreditSchema, walletResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { ADMIN, ALL, type RouteApp } from '../../http/routing';
import { creditWallet, walletOf } from './service';

export function walletRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/wallet', {
    config: { access: ALL },
    schema: { summary: 'The own wallet: balance and history', response: { 200: walletResponse } },
  }, async (request) => walletOf(ctx, actorOf(request).uid));

  app.post('/api/wallet/credit', {
    config: { access: ADMIN, idempotent: true },
    schema: { summary: 'Credit a wallet (AdminCredit)', body: walletCreditSchema, response: { 200: walletCreditResponse } },
  }, async (request) => creditWallet(ctx, actorOf(request), request.body));
}
