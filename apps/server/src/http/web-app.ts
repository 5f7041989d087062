import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, htmlPageResponse, webFileParams, webFileResponse } from '@rideway/contract';
import { AppError } from './app-error';
import { LandingPages, type LandingRequest } from './landing-page';
import type { RouteApp } from './routing';

/**
 * Where `npm run build -w @rideway/web` puts the app, found through the workspace's package link so
 * the sources (src/http) and the compiled server (dist/main.js) find the same folder.
 */
function webDist(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@rideway/web/package.json')), 'dist');
  } catch {
    // Installed without the web workspace: the API alone, with the status page.
    return '';
  }
}
const WEB_DIST = webDist();

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
const PUBLIC = { access: 'public' } as const;

/**
 * `landingView` says for whom and in which language a request's landing page is drawn, or null
 * where the plain page serves better (a driver's landing page has no booking form to hold a place for).
 */
export async function registerWebApp(app: RouteApp, statusPage: () => Promise<string>, root = WEB_DIST, landingView?: (request: FastifyRequest) => Promise<LandingRequest | null>): Promise<void> {
  if (root === '' || !existsSync(join(root, 'index.html'))) {
    app.get('/', { config: PUBLIC, schema: { summary: "The server's status page (the web app is not built)", response: { 200: htmlPageResponse } } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(await statusPage()));
    app.get('/*', { config: PUBLIC, schema: { summary: 'The web app is not built: nothing to serve', params: webFileParams, response: { 200: webFileResponse } } }, () => {
      throw new AppError('not_found');
    });
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody('not_found')));
    return;
  }
  // The build leaves .br and .gz beside each text asset: sent to a browser that accepts them, with Vary.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
  // The handlers send and return nothing: returning the reply of a file being streamed piled up
  // 'close' listeners on the response (Node's MaxListeners warning in the browser tests).
  // Vary: a cache between (a proxy, a CDN) keeps the brotli, gzip and plain copies apart.
  const sendPage = (reply: FastifyReply): void => {
    void reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').sendFile('index.html', { cacheControl: false });
  };
  const landing = landingView ? LandingPages.find(root) : null;
  app.get('/', { config: PUBLIC, schema: { summary: "The web app's page (the landing page drawn in the visitor's language)", response: { 200: htmlPageResponse } } }, (request, reply) => {
    if (!landing || !landingView) {
      sendPage(reply);
      return;
    }
    landingView(request)
      .then(async (drawn) => {
        if (drawn) await landing.send(request, reply, drawn);
        else sendPage(reply);
      })
      .catch((error: unknown) => {
        // The app draws the page itself as well: a database that cannot answer, or a build being
        // replaced, costs the early paint only.
        request.log.warn({ err: error }, 'the landing page is served plain: its language or its drawing could not be read');
        if (!reply.sent) sendPage(reply);
      });
  });
  // A missing file falls through to the not-found handler, which answers a page request with the app.
  app.get('/*', { config: PUBLIC, schema: { summary: "The web app's files (hashed assets cached for a year)", params: webFileParams, response: { 200: webFileResponse } } }, (request, reply) => {
    const path = request.params['*'];
    void reply.header('vary', 'accept-encoding');
    if (path.startsWith('assets/')) void reply.sendFile(path, { maxAge: '365d', immutable: true });
    else void reply.header('cache-control', 'no-cache').sendFile(path, { cacheControl: false });
  });
  app.setNotFoundHandler((request, reply) => {
    if (wantsAppPage(request)) sendPage(reply);
    else void reply.status(404).send(errorBody('not_found'));
  });
}
