/**
 * The dashboard's build (web/, issue 27): a single-page app built into dist/web, which the service serves at `/`
 * (src/api/web-app.router.ts). Hashed assets under /assets; the manifest lets the build report each screen's size.
 */
import { defineConfig, type Plugin } from 'vite';
import { formatRouteSizes, JOBS_SCREEN_BUDGET_BYTES, routeSizes } from './web/build/route-sizes.js';

const outDir = new URL('./dist/web', import.meta.url).pathname;

/** Prints each screen's first-load JavaScript (gzip) and fails the build when the jobs screen is over budget. */
function routeBudget(): Plugin {
  return {
    name: 'qa-route-budget',
    apply: 'build',
    closeBundle() {
      const sizes = routeSizes(outDir);
      process.stdout.write(`first load of each screen, compressed JavaScript:\n${formatRouteSizes(sizes)}\n`);
      const jobs = sizes.find((size) => size.route === 'jobs')!;
      if (jobs.gzipBytes > JOBS_SCREEN_BUDGET_BYTES) {
        throw new Error(`the jobs screen loads ${(jobs.gzipBytes / 1024).toFixed(1)} KB of compressed JavaScript, over its ${JOBS_SCREEN_BUDGET_BYTES / 1024} KB budget`);
      }
    },
  };
}

export default defineConfig({
  root: new URL('./web', import.meta.url).pathname,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    manifest: true,
    // No inline script anywhere: the page's CSP allows scripts from 'self' only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
    rollupOptions: {
      // React Query marks its modules "use client" (for React Server Components): meaningless in this bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  plugins: [routeBudget()],
});
