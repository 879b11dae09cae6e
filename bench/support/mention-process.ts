/**
 * bench:chat's sender in a process of its own, as Slack is: started by `sendMentionsElsewhere` (mention-load.ts),
 * it receives one `MentionOrder` over IPC, sends the deliveries, answers with the `AckResult` and exits.
 */
import { openLoopMentions, type MentionOrder } from './mention-load.js';

if (!process.send) {
  console.error('mention-process.ts is started by bench/support/mention-load.ts sendMentionsElsewhere (needs an IPC channel)');
  process.exit(2);
}

process.once('message', (order: MentionOrder) => {
  openLoopMentions(order).then(
    (result) => process.send!({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send!({ ok: false, message: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
