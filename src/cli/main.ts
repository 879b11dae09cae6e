import { runCli } from './program.js';

// Explicit exit: a stopped service must not linger on a forgotten handle (and stderr is synchronous here).
process.exit(await runCli(process.argv));
