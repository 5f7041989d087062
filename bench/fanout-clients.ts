// A child process of the fan-out bench: holds the WebSocket clients (a process may hold only so
// many sockets), tells its parent when all are connected and when each event has reached all.
import { WebSocket } from 'ws';

const [url = '', countText = '0', token = '', topic = ''] = process.argv.slice(2);
const count = Number(countText);
let received = 0;

async function open(): Promise<void> {
  const socket = new WebSocket(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => { resolve(); });
    socket.once('error', reject);
  });
  if (topic) {
    socket.send(JSON.stringify({ type: 'subscribe', topic }));
    // The subscribed answer, then the snapshot of the live map.
    await new Promise<void>((resolve) => {
      let seen = 0;
      const onMessage = () => {
        seen += 1;
        if (seen === 2) {
          socket.off('message', onMessage);
          resolve();
        }
      };
      socket.on('message', onMessage);
    });
  }
  socket.on('message', () => {
    received += 1;
    if (received === count) {
      received = 0;
      process.send?.('done');
    }
  });
}

for (let start = 0; start < count; start += 250) await Promise.all(Array.from({ length: Math.min(250, count - start) }, open));
process.send?.('ready');
