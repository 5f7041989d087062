// The load generator's process (http-load.ts): runs the load its parent sends and answers with
// its requests per second.
import { runLoad, type Load } from './http-load';

process.once('message', (load: Load) => {
  runLoad(load).then(
    (rps) => { process.send?.({ rps }); },
    (error: unknown) => { process.send?.({ error: String(error) }); },
  );
});
