/**
 * bench:webhooks' sender in a process of its own, as the code host is: started by `sendDeliveriesElsewhere`
 * (delivery-load.ts), it receives one `DeliveryOrder` over IPC, sends the deliveries, answers with the
 * `DeliveryResult` and exits.
 */
import { sendDeliveries, type DeliveryOrder } from './delivery-load.js';

if (!process.send) {
  console.error('delivery-process.ts is started by bench/support/delivery-load.ts sendDeliveriesElsewhere (needs an IPC channel)');
  process.exit(2);
}

process.once('message', (order: DeliveryOrder) => {
  sendDeliveries(order).then(
    (result) => process.send!({ ok: true, result }, () => process.exit(0)),
    (error: unknown) => process.send!({ ok: false, message: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
