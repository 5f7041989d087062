import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import { creditWallet, walletOf } from './service';

export function walletRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/wallet', async (request) => walletOf(ctx, actorOf(request).uid));
  app.post('/api/wallet/credit', async (request) => creditWallet(ctx, actorOf(request), request.body));
}
