import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export type LoadBalancer = {
  /** The service's URL through the balancer. */
  url: string;
  /** Connections handed to each backend so far, in the order the backends were given. */
  connections: () => number[];
  close: () => Promise<void>;
};

/**
 * A layer-4 (TCP) round-robin load balancer over server processes on the loopback, as a test
 * starts one in front of several processes (issue 23). Whole connections are relayed, so a
 * WebSocket's upgrade and frames pass through like any HTTP request. A backend that refuses the
 * connection (a killed process) is skipped for the next one, as HAProxy's and Caddy's retries do,
 * so a client reconnecting after a crash lands on a live process; a client whose backend dies
 * under it sees its connection close, as it would behind a real balancer.
 */
export async function loadBalancer(ports: readonly number[]): Promise<LoadBalancer> {
  const sockets = new Set<Socket>();
  const counts = ports.map(() => 0);
  let turn = 0;

  const relay = (client: Socket) => {
    sockets.add(client);
    // What the client sends before a backend accepts it waits here.
    const early: Buffer[] = [];
    const hold = (chunk: Buffer) => early.push(chunk);
    client.on('data', hold);
    client.on('error', () => client.destroy());
    client.on('close', () => sockets.delete(client));
    const first = turn++ % ports.length;

    const attempt = (tried: number) => {
      if (client.destroyed) return;
      if (tried === ports.length) {
        client.destroy();
        return;
      }
      const index = (first + tried) % ports.length;
      const upstream = connect(ports[index] ?? 0, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        counts[index] = (counts[index] ?? 0) + 1;
        sockets.add(upstream);
        client.off('data', hold);
        for (const chunk of early.splice(0)) upstream.write(chunk);
        client.pipe(upstream);
        upstream.pipe(client);
        client.once('close', () => upstream.destroy());
      });
      upstream.on('error', () => {
        if (!connected) attempt(tried + 1);
      });
      upstream.on('close', () => {
        sockets.delete(upstream);
        if (connected) client.destroy();
      });
    };
    attempt(0);
  };

  const server = createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    connections: () => [...counts],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        server.close(() => { resolve(); });
      }),
  };
}
