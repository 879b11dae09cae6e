import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/**
 * `qa webhooks list [--failed]` and `qa webhooks redeliver <id>`: an operator's view of the durable webhook receipts,
 * and the way to run a dead one again once its cause is fixed. An administrator verb (the database, not the API).
 */
export function registerWebhooks(program: Command, context: CliContext, print: (line: string) => void): void {
  const webhooks = program.command('webhooks').description('inspect and redeliver received webhook deliveries (an administrator verb)');
  webhooks
    .command('list')
    .description('list received deliveries, newest first: id, provider, event, delivery id, status, attempts, last error')
    .option('--failed', 'only deliveries that failed (waiting for a retry) or are dead (out of retries)')
    .option('--limit <n>', 'at most this many (1-500)', '50')
    .action(async (options: { failed?: boolean; limit: string }) => {
      const { listWebhookReceipts } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      const receipts = await listWebhookReceipts(config, logger, { failed: options.failed === true, limit: Number.parseInt(options.limit, 10) || 50 });
      for (const receipt of receipts) {
        print([receipt.id, receipt.provider, receipt.event, receipt.deliveryId, receipt.status, `attempts=${receipt.attempts}`, receipt.lastError ?? ''].join('\t').trimEnd());
      }
      if (receipts.length === 0) print(options.failed ? 'No failed deliveries' : 'No deliveries');
    });
  webhooks
    .command('redeliver')
    .description('process a failed or dead delivery again, with fresh attempts (by receipt id or delivery id)')
    .argument('<id>', 'receipt id or delivery id')
    .action(async (id: string) => {
      const { redeliverWebhookReceipt } = await import('../admin.js');
      const { config, logger } = context.load({ logsTo: 'stderr' });
      await redeliverWebhookReceipt(config, logger, id);
      print(`Delivery ${id} is queued again`);
    });
}
