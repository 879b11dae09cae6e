import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Serializable } from 'node:child_process';

/** What a bench child process (load-process.ts, mention-process.ts, delivery-process.ts) sends back once. */
export type ChildAnswer<Result> = { ok: true; result: Result } | { ok: false; message: string };

/**
 * Runs `script` (a module beside this one, through tsx) in a child process, sends it `order` and resolves with the
 * result it answers: the load's client work (building requests, reading answers, timers) does not share the measured
 * server's event loop. `what` names the child in errors.
 */
export function runInChild<Order extends Serializable, Result>(script: URL, order: Order, what: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(script), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answered = false;
    child.once('message', (message: ChildAnswer<Result>) => {
      answered = true;
      if (message.ok) resolve(message.result);
      else reject(new Error(`${what}: ${message.message}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`${what} exited with ${code} before answering`));
    });
    child.send(order);
  });
}
