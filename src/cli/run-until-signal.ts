import type { EventEmitter } from 'node:events';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { RunningService } from '../compose/index.js';
import type { CliContext } from './context.js';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Starts a service and resolves once it has stopped. The first SIGTERM or SIGINT (even one that arrives while the
 * service is still starting) leads to exactly one `stop()`; later signals are logged and ignored, and the listeners
 * keep Node from dying on them mid-shutdown.
 */
export async function runUntilSignal(
  start: () => Promise<RunningService>,
  logger: Logger,
  signals: Pick<EventEmitter, 'on' | 'off'> = process,
): Promise<void> {
  let received: string | undefined;
  let wake: (() => void) | undefined;
  const onSignal = (signal: string) => {
    if (received !== undefined) {
      logger.warn({ signal }, 'already stopping; waiting for running work to finish');
      return;
    }
    received = signal;
    wake?.();
  };
  for (const name of STOP_SIGNALS) signals.on(name, onSignal);
  try {
    const service = await start();
    if (received === undefined) {
      logger.info('running; stop with SIGTERM or SIGINT');
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    logger.info({ signal: received }, 'stopping');
    await service.stop();
    logger.info('stopped');
    // The CLI exits explicitly right after this: let the last lines reach a slow reader of stdout first.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  } finally {
    for (const name of STOP_SIGNALS) signals.off(name, onSignal);
  }
}

/** A long-running verb: start the role from the loaded config, then run until a stop signal. */
export async function runService(
  context: CliContext,
  start: (config: Config, logger: Logger) => Promise<RunningService>,
): Promise<void> {
  const { config, logger } = context.load();
  await runUntilSignal(() => start(config, logger), logger);
}
