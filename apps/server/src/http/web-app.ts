import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '@rideway/contract';

/** Where `npm run build -w @rideway/web` puts the app. */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/** A browser asking for a page of the app (a route of section 2), not for the API or a file. */
const wantsAppPage = (request: FastifyRequest): boolean =>
  request.method === 'GET' && !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html');

/**
 * Serves the built web app from the same origin as the API, on two rows of the route table:
 * `GET /` (the app's page) and `GET /*` (its files; hashed assets cached for a year, the page
 * itself always revalidated), and any other page a browser asks for gets the app, which routes
 * itself; everything else not found answers the JSON `not_found`. Without a build, `/` shows the
 * server's own status page, so API-only work needs no front-end build.
 */
export async function registerWebApp(app: FastifyInstance, statusPage: () => Promise<string>, root = WEB_DIST): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(await statusPage()));
    app.get('/*', (_request, reply) => reply.status(404).send(errorBody('not_found')));
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody('not_found')));
    return;
  }
  await app.register(fastifyStatic, { root, serve: false });
  // The handlers send and return nothing: returning the reply of a file being streamed piled up
  // 'close' listeners on the response (Node's MaxListeners warning in the browser tests).
  const sendPage = (reply: FastifyReply): void => {
    void reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  };
  app.get('/', (_request, reply) => { sendPage(reply); });
  // A missing file falls through to the not-found handler, which answers a page request with the app.
  app.get('/*', (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (path.startsWith('assets/')) void reply.sendFile(path, { maxAge: '365d', immutable: true });
    else void reply.header('cache-control', 'no-cache').sendFile(path, { cacheControl: false });
  });
  app.setNotFoundHandler((request, reply) => {
    if (wantsAppPage(request)) sendPage(reply);
    else void reply.status(404).send(errorBody('not_found'));
  });
}
