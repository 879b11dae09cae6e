/**
 * The one composition root: builds the service graph of a process once from `Config` and starts its roles. Only
 * the CLI (src/cli) imports it; tests and benches call it with overrides instead of wiring parts themselves.
 */
export { startAll, startServe, startWorker, type HttpRoleOptions, type RunningHttpRole, type RunningRole, type RunningService } from './roles.js';
export { composeServices, type Services } from './services.js';
export type { ComposeOverrides } from './overrides.js';
