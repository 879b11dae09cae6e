import { pino, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger, type LoggerOptions } from 'pino';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

export interface LogSettings {
  readonly level: LogLevel;
  readonly format: LogFormat;
}

export type Logger = PinoLogger;

const PRETTY_OPTIONS = { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' };

/** Values under these paths never reach a log line, whoever logs them. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.secret',
  '*.token',
  '*.apiKey',
];

/**
 * JSON lines for machines, pino-pretty for a terminal (`config.format` is decided once, in `loadConfig`).
 * `destination` replaces stdout (tests); pretty output to a given destination is formatted in-process,
 * pretty output to stdout goes through the pino-pretty transport (a worker thread, flushed on exit). JSON lines go
 * to stdout synchronously, as Node writes its own stdout to a pipe or file: pino's default asynchronous stream
 * answers `flush()` at once while a write is still in flight, so the process's last lines ("stopped") could be
 * lost when the CLI exits right after them.
 */
export function createLogger(config: LogSettings, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level: config.level,
    timestamp: stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  if (config.format === 'json') return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
  if (destination !== undefined) {
    // Loaded here, not with the module: only pretty output to a given destination formats in-process.
    const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
    return pino(options, pinoPretty({ ...PRETTY_OPTIONS, destination, sync: true }));
  }
  return pino({ ...options, transport: { target: 'pino-pretty', options: PRETTY_OPTIONS } });
}
