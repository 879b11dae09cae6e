import { LogLevel, type AppOptions } from '@slack/bolt';
import type { Logger } from '../src/logger.js';

export type BoltLogger = NonNullable<AppOptions['logger']>;

/**
 * Bolt's logger interface over the service's pino logger, so Bolt's own lines (a refused signature, a listener that
 * threw, a Socket Mode reconnect) are JSON lines with the rest. The level is the service's; Bolt's `setLevel` is
 * ignored.
 */
export function boltLogger(logger: Logger): BoltLogger {
  const line = (args: unknown[]) => args.map((arg) => (typeof arg === 'string' ? arg : arg instanceof Error ? arg.message : JSON.stringify(arg))).join(' ');
  return {
    debug: (...args: unknown[]) => logger.debug(line(args)),
    info: (...args: unknown[]) => logger.info(line(args)),
    warn: (...args: unknown[]) => logger.warn(line(args)),
    error: (...args: unknown[]) => logger.error(line(args)),
    setLevel: () => undefined,
    getLevel: () => (logger.level === 'debug' || logger.level === 'trace' ? LogLevel.DEBUG : LogLevel.INFO),
    setName: () => undefined,
  };
}
