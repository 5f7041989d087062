import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type DatabaseRelay = {
  /** The database's URL through the relay. */
  url: string;
  /** Holds what the server sends from now on, as a database that stopped answering would. */
  hold: () => void;
  /** Sends what was held, and everything after. */
  release: () => void;
  /** Drops every connection and refuses new ones, like a stopped or restarting database. */
  vanish: () => Promise<void>;
  /** Accepts connections again on the same address, like the database back from a restart. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

/** A TCP relay in front of PostgreSQL that can hold what the server sends, or vanish like a lost database and come back. */
export async function databaseRelay(target: URL): Promise<DatabaseRelay> {
  const sockets = new Set<Socket>();
  let held: (() => void)[] | undefined;
  const relay = (client: Socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
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
      server = createServer(relay);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: stop,
  };
}
