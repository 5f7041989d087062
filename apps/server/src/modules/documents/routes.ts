import { documentKindParams, documentListQuery, documentListResponse, documentRejectSchema, documentResponse, documentUploadSchema, idParams, myDocumentsResponse } from '@rideway/contract';
import type { AppContext } from '../../context';
import { actorOf } from '../../http/actor';
import type { RouteApp } from '../../http/routing';
import { listForReview, myDocuments, reviewDocument, uploadDocument } from './service';

/** Issue 20 point 3: a driver's documents, and their review by an admin or the driver's fleet admin. */
export function documentRoutes(app: RouteApp, ctx: AppContext): void {
  app.get('/api/driver/documents', {
    config: { access: ['driver'] },
    schema: { summary: "The driver's documents (newest of each kind) and what keeps it offline", response: { 200: myDocumentsResponse } },
  }, async (request) => myDocuments(ctx, actorOf(request)));

  app.put('/api/driver/documents/:kind', {
    config: { access: ['driver'] },
    schema: { summary: 'Send a document (image and expiry date) for review; it replaces a pending one of its kind', params: documentKindParams, body: documentUploadSchema, response: { 201: documentResponse } },
  }, async (request, reply) => reply.status(201).send({ document: await uploadDocument(ctx, actorOf(request), request.params.kind, request.body) }));

  app.get('/api/documents', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: "Drivers' documents to review (a fleet admin: its own drivers'), by status", querystring: documentListQuery, response: { 200: documentListResponse } },
  }, async (request) => ({ documents: await listForReview(ctx, actorOf(request), request.query.status) }));

  app.post('/api/documents/:id/approve', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Approve a pending document', params: idParams, response: { 200: documentResponse } },
  }, async (request) => ({ document: await reviewDocument(ctx, actorOf(request), request.params.id, { status: 'approved' }) }));

  app.post('/api/documents/:id/reject', {
    config: { access: ['admin', 'fleetadmin'] },
    schema: { summary: 'Reject a pending document with the reason the driver reads', params: idParams, body: documentRejectSchema, response: { 200: documentResponse } },
  }, async (request) => ({ document: await reviewDocument(ctx, actorOf(request), request.params.id, { status: 'rejected', reason: request.body.reason }) }));
}
