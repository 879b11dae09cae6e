import { loadConfig, processEnvironment, type Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';

export interface LoadOptions {
  /**
   * Where log lines go. Services log to stdout; a verb whose stdout is its result (`qa keys create` prints a key
   * to capture with `| tail -n 1`) logs to stderr instead.
   */
  logsTo?: 'stdout' | 'stderr';
}

export interface CliContext {
  /** The configuration and logger, read from the environment on first use and kept for the rest of the run. */
  load(options?: LoadOptions): { config: Config; logger: Logger };
  /** The configuration alone, for the client verbs: they log nothing and never open the database. */
  config(): Config;
}

export function createCliContext(env: NodeJS.ProcessEnv = processEnvironment()): CliContext {
  let loaded: { config: Config; logger: Logger } | undefined;
  let parsed: Config | undefined;
  const readConfig = () => (parsed ??= loadConfig(env));
  return {
    config: readConfig,
    load(options = {}) {
      if (loaded === undefined) {
        const config = readConfig();
        loaded = { config, logger: options.logsTo === 'stderr' ? createLogger(config.log, process.stderr) : createLogger(config.log) };
      }
      return loaded;
    },
  };
}
