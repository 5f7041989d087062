import { Agent, request } from 'node:http';

/**
 * Requests per second from `concurrency` keep-alive connections, each sending the next request
 * as soon as its previous answer arrives, for about `ms` milliseconds.
 */
export async function requestsPerSecond(options: { port: number; path: string; method: string; headers: Record<string, string>; body: (i: number) => string; concurrency: number; ms: number; authorization?: () => string }): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  let sent = 0;
  let done = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const body = options.body(sent++);
      const req = request({ host: '127.0.0.1', port: options.port, path: options.path, method: options.method, agent, headers: { ...options.headers, ...(options.authorization ? { authorization: options.authorization() } : {}), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          if ((res.statusCode ?? 500) >= 400) failed += 1;
          resolve();
        });
      });
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(body);
    });
  const until = async (deadline: number, count: boolean) => {
    while (performance.now() < deadline) {
      await one();
      if (count) done += 1;
    }
  };
  // Warm-up, then the measured run.
  await Promise.all(Array.from({ length: options.concurrency }, () => until(performance.now() + 300, false)));
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, () => until(started + options.ms, true)));
  const elapsed = performance.now() - started;
  agent.destroy();
  if (failed > 0) throw new Error(`${String(failed)} requests failed`);
  return (done / elapsed) * 1000;
}
