import type { FastifyInstance } from 'fastify';

/**
 * Keep-alive connections during a shutdown (issue 21 point 3). Fastify's close waits for every
 * open connection but ends only those idle when it starts, so a request in flight would leave its
 * connection open after the answer and the close waiting on a client that never hangs up. Once
 * closing, every answer says `Connection: close`, and Node ends the connection after it.
 */
export function registerDrain(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // A callback, not an async function: every answer passes here, and a promise each is work.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
