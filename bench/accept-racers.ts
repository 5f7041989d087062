// A child process of the accept bench: the racing drivers' app, in a process of its own as a load
// generator is (issue 21: the server's figures are measured with the clients in another process),
// so their requests' work is not counted in the server's thread. On each booking id from its
// parent it sends every driver's accept at once over kept-alive connections and answers with the
// race's time (from the first request sent to the last answer read) and its winners.
import { Agent, request } from 'node:http';

export type RaceCommand = { type: 'race'; bookingId: string };
export type RaceResult = { type: 'raced'; ms: number; winners: number; statuses: number[] };

const [port = '0', ...auths] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: auths.length });

const accept = (bookingId: string, authorization: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), path: `/api/bookings/${bookingId}/accept`, method: 'POST', agent, headers: { authorization, 'content-type': 'application/json', 'content-length': 2 } }, (res) => {
      res.resume();
      res.on('end', () => { resolve(res.statusCode ?? 0); });
    });
    req.on('error', reject);
    req.end('{}');
  });

process.on('message', (command: RaceCommand) => {
  const started = performance.now();
  void Promise.all(auths.map((authorization) => accept(command.bookingId, authorization))).then((statuses) => {
    const result: RaceResult = { type: 'raced', ms: performance.now() - started, winners: statuses.filter((status) => status === 200).length, statuses };
    process.send?.(result);
  });
});
process.on('disconnect', () => { agent.destroy(); });
process.send?.('ready');
