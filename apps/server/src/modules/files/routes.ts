import { fileParams, IMAGE_CONTENT_TYPES, imageResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import type { RouteApp } from '../../http/routing';

/** Uploaded images (car types, profile and trip photos). Licences are not served here. */
export function fileRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/files/*', {
    config: { access: 'public' },
    schema: { summary: 'An uploaded image, by its stored key', params: fileParams, response: { 200: imageResponse } },
  }, async (request, reply) => {
    const key = request.params['*'];
    if (key.startsWith('licences/')) throw new AppError('not_found');
    const bytes = await ctx.storage.get(key);
    const type = IMAGE_CONTENT_TYPES.get(key.split('.').pop() ?? '');
    if (!bytes || !type) throw new AppError('not_found');
    return reply.type(type).header('cache-control', 'public, max-age=31536000, immutable').send(Buffer.from(bytes));
  });
}
