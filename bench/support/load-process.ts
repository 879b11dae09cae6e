/**
 * The HTTP load of `bench/api.bench.ts` in a process of its own, as a real client would be: started with
 * `node --import tsx bench/support/load-process.ts` by `loadElsewhere` (http-load.ts), it receives one
 * `LoadOrder` over IPC, runs it, sends back the `LoadResult` and exits. The server's event loop then serves
 * requests only, instead of also running the client's callbacks.
 */
import { closedLoop, paced, type LoadOrder } from './http-load.js';

if (!process.send) {
  console.error('load-process.ts is started by bench/support/http-load.ts loadElsewhere (needs an IPC channel)');
  process.exit(2);
}

process.once('message', (order: LoadOrder) => {
  const run = order.kind === 'closed' ? closedLoop(order.base, order.call, order.options) : paced(order.base, order.call, { ...order.options, rate: order.rate });
  run.then(
    (result) => process.send!({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send!({ ok: false, message: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
