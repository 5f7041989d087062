import { fork } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { join } from 'node:path';

/** A keep-alive HTTP load: request i sends `bodies[i % n]`, signed with `authorizations[i % m]` when there are any. */
export type Load = { port: number; path: string; method: string; bodies: string[]; authorizations?: string[]; concurrency: number; ms: number };

/**
 * Requests per second from `concurrency` keep-alive connections, each sending the next request
 * as soon as its previous answer arrives, for about `ms` milliseconds, in this process.
 */
export async function runLoad(load: Load): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: load.concurrency });
  const authorizations = load.authorizations ?? [];
  let sent = 0;
  let done = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const n = sent++;
      const body = load.bodies[n % load.bodies.length] ?? '';
      const authorization = authorizations.length > 0 ? { authorization: authorizations[n % authorizations.length] ?? '' } : {};
      const req = request({ host: '127.0.0.1', port: load.port, path: load.path, method: load.method, agent, headers: { ...authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
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
  await Promise.all(Array.from({ length: load.concurrency }, () => until(performance.now() + 300, false)));
  const started = performance.now();
  await Promise.all(Array.from({ length: load.concurrency }, () => until(started + load.ms, true)));
  const elapsed = performance.now() - started;
  agent.destroy();
  if (failed > 0) throw new Error(`${String(failed)} requests failed`);
  return (done / elapsed) * 1000;
}

/**
 * The same load from a child process, as the figures were measured (issue 21: a load
 * generator in another process): the clients' work then falls on the other core, and the
 * server's thread does only the server's. Measured in the server's own thread, the clients' cost
 * was counted on both sides and flattered the slower one.
 */
export async function requestsPerSecond(load: Load): Promise<number> {
  const child = fork(join(import.meta.dirname, 'http-load-child.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  child.send(load);
  const [answer] = (await once(child, 'message')) as [{ rps: number } | { error: string }];
  child.disconnect();
  if ('error' in answer) throw new Error(answer.error);
  return answer.rps;
}
