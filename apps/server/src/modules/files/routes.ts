import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/** Uploaded images (car types, profile and trip photos). Licences are not served here. */
export function fileRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { '*': string } }>('/api/files/*', async (request, reply) => {
    const key = request.params['*'];
    if (key.startsWith('licences/')) throw new AppError('not_found');
    const bytes = await ctx.storage.get(key);
    const type = TYPES[key.split('.').pop() ?? ''];
    if (!bytes || !type) throw new AppError('not_found');
    return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(Buffer.from(bytes));
  });
}
