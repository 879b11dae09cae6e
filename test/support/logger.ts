import { createLogger, type Logger } from '../../src/logger.js';

/** A real logger that writes nothing, for code under test that wants one. */
export function silentLogger(): Logger {
  return createLogger({ level: 'silent', format: 'json' });
}
