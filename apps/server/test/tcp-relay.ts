import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type TcpRelay = {
  /** The service's URL through the relay. */
  url: string;
  /** Holds what the client sends from now on, as a service that stopped answering would. */
  hold: () => void;
  /** Sends what was held, and everything after. */
  release: () => void;
  /** Drops every connection and refuses new ones, like a stopped or restarting service. */
  vanish: () => Promise<void>;
  /** Accepts connections again on the same address, like the service back from a restart. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

/**
 * A TCP relay in front of a service (PostgreSQL, Redis) that can hold what the client sends, or
 * vanish like a lost service and come back, without touching the service itself: other tests
 * share it.
 */
export async function tcpRelay(target: URL, defaultPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let held: (() => void)[] | undefined;
  const relay = (client: Socket) => {
    const upstream = connect(Number(target.port || defaultPort), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      if (held) held.push(() => upstream.write(chunk));
      else upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };
  let server: Server = createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const stop = () => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (!server.listening) { resolve(); return; }
    server.close(() => { resolve(); });
  });
  return {
    url: url.toString(),
    hold: () => { held = []; },
    release: () => { const waiting = held ?? []; held = undefined; for (const send of waiting) send(); },
    vanish: stop,
    restore: async () => {
      if (server.listening) return;
      server = createServer(relay);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: stop,
  };
}
