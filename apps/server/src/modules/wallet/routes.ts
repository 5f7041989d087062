import { walletCreditSchema } from '@rideway/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { withBody, withSummary } from '../../http/docs';
import { actorOf } from '../../http/actor';
import { creditWallet, walletOf } from './service';

export function walletRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/wallet', withSummary('The own wallet: balance and history'), async (request) => walletOf(ctx, actorOf(request).uid));
  app.post('/api/wallet/credit', withBody('Credit a wallet (AdminCredit)', walletCreditSchema), async (request) => creditWallet(ctx, actorOf(request), request.body));
}
