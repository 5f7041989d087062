import { auditLogResponse, auditQuerySchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { ADMIN, type RouteApp } from '../../http/routing';
import { listAudit } from './service';

/**
 * Issue 23 point 8: admins read who changed what, when, and the values before and after. Admins
 * only: the log holds every admin's work across fleets, settings and money (decisions.md).
 */
export function auditRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/audit', {
    config: { access: ADMIN },
    schema: {
      summary: "Admins' and fleet admins' changes, newest first, a page at a time: who, when, the action and its entity, the changed fields before and after",
      querystring: auditQuerySchema,
      response: { 200: auditLogResponse },
    },
  }, async (request) => listAudit(ctx, request.query));
}
