#!/usr/bin/env node
// `qa` in a checkout (`npx qa …`): runs the compiled CLI. `npm install` builds it (the `prepare` script);
// after changing sources, run `npm run build` again.
try {
  await import('../dist/src/cli/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/cli/main.js')) {
    process.stderr.write('qa: the CLI is not built yet; run `npm run build` first\n');
    process.exit(2);
  }
  throw error;
}
