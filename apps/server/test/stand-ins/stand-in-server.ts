import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The common part of the maps providers' local stand-ins (osrm.ts, nominatim.ts, photon.ts): a
 * node:http server on a free port that records every request and answers in the mode a test
 * sets. `ok` answers as the provider documents; `nothing` is the provider's own "nothing there"
 * (OSRM's NoRoute, Nominatim's empty list); `hang` never answers (the adapter's timeout fires);
 * `fail` is a 503; `garbage` is not JSON; `wrongShape` is JSON of another shape than documented.
 */

export type StandInMode = 'ok' | 'nothing' | 'hang' | 'fail' | 'garbage' | 'wrongShape';

export type SeenRequest = { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders };

export type StandInAnswer = { status: number; body: unknown };

export type StandIn = {
  /** The base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  mode: StandInMode;
  /** Every request received, oldest first. */
  requests: SeenRequest[];
  /** Awaited before each answer (a test looks at the world while the provider is being asked). */
  beforeAnswer?: (request: SeenRequest) => Promise<void>;
  close: () => Promise<void>;
};

/** A JSON answer. */
export const json = (body: unknown, status = 200): StandInAnswer => ({ status, body });

/**
 * Starts a stand-in whose `answer` speaks the provider's format for the modes `ok`, `nothing`
 * and `wrongShape`; `hang`, `fail` and `garbage` are the same for every provider.
 */
export async function startStandIn(answer: (request: SeenRequest, mode: 'ok' | 'nothing' | 'wrongShape') => StandInAnswer): Promise<StandIn> {
  const standIn: StandIn = { url: '', mode: 'ok', requests: [], close: () => Promise.resolve() };
  const server = createServer((incoming, response) => {
    const url = new URL(incoming.url ?? '/', 'http://stand-in');
    const seen: SeenRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: incoming.headers };
    standIn.requests.push(seen);
    const mode = standIn.mode;
    void (async () => {
      await standIn.beforeAnswer?.(seen);
      if (mode === 'hang') return;
      if (mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>503 Service Unavailable</body></html>');
        return;
      }
      if (mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"code":"Ok","routes":[{"distance":');
        return;
      }
      const { status, body } = answer(seen, mode);
      response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json; charset=utf-8' });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    })();
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}

/** Starts a stand-in's server on a free loopback port: its base URL, and a close that ends open connections too. */
export async function listenLocally(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A request's whole body, as the push and SMS stand-ins read it before answering. */
export const bodyOf = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => { resolve(Buffer.concat(chunks)); });
    request.on('error', reject);
  });

/** Answers with a JSON body (the content type as the provider sends it). */
export function answerJson(response: ServerResponse, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): void {
  response.writeHead(status, { 'content-type': contentType }).end(JSON.stringify(body));
}
