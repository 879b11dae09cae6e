import { loadConfig, processEnvironment, type Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';

export interface CliContext {
  /** The configuration and logger, read from the environment on first use and kept for the rest of the run. */
  load(): { config: Config; logger: Logger };
}

export function createCliContext(env: NodeJS.ProcessEnv = processEnvironment()): CliContext {
  let loaded: { config: Config; logger: Logger } | undefined;
  return {
    load() {
      if (loaded === undefined) {
        const config = loadConfig(env);
        loaded = { config, logger: createLogger(config.log) };
      }
      return loaded;
    },
  };
}
