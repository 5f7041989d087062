import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** A started redis-server answers PING within this (it starts in milliseconds; a loaded machine is slower). */
const START_LIMIT_MS = 20_000;

export type RedisServer = {
  url: string;
  /** Kills the server (nothing is saved: what it held is lost) and starts a new one on the same port. */
  restart: (downMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

/** Whether something on the port answers PING with PONG. */
const answersPing = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (pong: boolean) => {
      socket.destroy();
      resolve(pong);
    };
    socket.setTimeout(1000, () => { done(false); });
    socket.on('error', () => { done(false); });
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => { resolve(); });
  });

/**
 * A private redis-server (the binary, on its own port, saving nothing) for a test that loses Redis
 * and gets it back: the machine's shared Redis, which other tests use, is never touched.
 */
export async function startRedisServer(port: number): Promise<RedisServer> {
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + START_LIMIT_MS;
    while (!(await answersPing(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${String(started.exitCode)} on port ${String(port)}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${String(port)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
    child = undefined;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${String(port)}`,
    async restart(downMs = 0) {
      await stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    stop,
  };
}
