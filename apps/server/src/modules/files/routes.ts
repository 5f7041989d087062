import { fileParams, IMAGE_CONTENT_TYPES, imageResponse } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import type { RouteApp } from '../../http/routing';
import { normaliseFileKey } from '../../providers/storage';
import { DOCUMENT_FOLDER, mayReadDocument } from '../documents/service';

/** The folder of drivers' licence images: never public. */
export const LICENCE_FOLDER = 'licences';

/**
 * Security-critical: who may see a driver's licence image: admins, the driver's own fleet
 * admin, and the driver. Anyone else (signed out included) is told it does not exist.
 */
async function mayReadLicence(ctx: AppContext, actor: Actor | null, key: string): Promise<boolean> {
  if (!actor) return false;
  if (actor.usertype === 'admin') return true;
  if (actor.usertype !== 'driver' && actor.usertype !== 'fleetadmin') return false;
  const owner = (await ctx.db.select({ id: users.id, fleetadmin: users.fleetadmin }).from(users).where(eq(users.licenseImage, key)).limit(1))[0];
  if (!owner) return false;
  return owner.id === actor.uid || (actor.usertype === 'fleetadmin' && owner.fleetadmin === actor.uid);
}

/**
 * Uploaded images by their stored key. The key is normalised once, here, before any decision:
 * whatever its spelling (doubled slashes, `./`, encoded slashes), a licence is a licence, and is
 * served only to those who may read it, never cached by a shared cache.
 */
export function fileRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/files/*', {
    config: { access: 'public' },
    schema: {
      summary: "An uploaded image, by its stored key (a driver's licence only to admins, the driver's fleet admin and the driver)",
      params: fileParams,
      response: { 200: imageResponse },
    },
  }, async (request, reply) => {
    const file = normaliseFileKey(request.params['*']);
    if (!file) throw new AppError('not_found');
    const document = file.folder === DOCUMENT_FOLDER;
    const licence = file.folder === LICENCE_FOLDER || document;
    if (file.folder === LICENCE_FOLDER && !(await mayReadLicence(ctx, request.actor, file.key))) throw new AppError('not_found');
    // Issue 20: a driver's documents are read as its licence is.
    if (document && !(await mayReadDocument(ctx.db, request.actor, file.key))) throw new AppError('not_found');
    const bytes = await ctx.storage.get(file.key);
    const type = IMAGE_CONTENT_TYPES.get(file.extension);
    if (!bytes || !type) throw new AppError('not_found');
    return reply
      .type(type)
      .header('cache-control', licence ? 'private, no-store' : 'public, max-age=31536000, immutable')
      .send(Buffer.from(bytes));
  });
}
