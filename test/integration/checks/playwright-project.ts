/**
 * A throwaway Playwright project for a generated test file, run with the real `playwright test` command.
 *
 * Where `@playwright/test` comes from: the project lives in a temporary directory outside the repository, with no
 * package.json, so Playwright loads its files as CommonJS, and CommonJS `require` also searches NODE_PATH. With
 * NODE_PATH set to this repository's node_modules, the generated file's `import … from '@playwright/test'` finds the
 * same copy the CLI runs from (two copies would make Playwright refuse to run). Without NODE_PATH the run fails with
 * "Cannot find module '@playwright/test'". (An ESM project, with `{"type":"module"}` and a node_modules symlink, also
 * works; ESM ignores NODE_PATH.)
 *
 * HTTPS: Chromium does not read NODE_EXTRA_CA_CERTS, and trusting the test CA would mean writing to an NSS
 * database in $HOME. Instead the browser is told to accept the one test server key by its SPKI hash
 * (`--ignore-certificate-errors-spki-list`): certificate errors still fail for anything else, unlike
 * `ignoreHTTPSErrors`. The probe call runs in Node's fetch, which trusts the CA through NODE_EXTRA_CA_CERTS.
 */
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BROWSER_EXECUTABLE_PATH } from '../../../src/config.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PLAYWRIGHT_CLI = join(REPO, 'node_modules', '.bin', 'playwright');
/** ../shared/STACK.md: Debian's Chromium, and no connections of its own to the internet. */
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export interface PlaywrightOutcome {
  /** The command's exit code: 0 when every test passed. */
  code: number | null;
  /** stdout and stderr (the line reporter, without colours). */
  output: string;
  /** From the JSON reporter: how many tests passed (`expected`), failed (`unexpected`), were skipped. */
  stats: { expected: number; unexpected: number; skipped: number; flaky: number };
}

export interface PlaywrightProject {
  dir: string;
  /** Runs `playwright test` on the project with exactly these check variables (none inherited). */
  run(env: Record<string, string>): Promise<PlaywrightOutcome>;
  remove(): Promise<void>;
}

/** The base64 SHA-256 of a certificate's public key, as Chromium's SPKI allow list takes it. */
export function spkiHash(certificatePem: string): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/**
 * Not passed on from the test's own environment: what the generated file reads, and Jest's variables (Playwright
 * refuses to run when it sees JEST_WORKER_ID: "needs to be invoked via 'npx playwright test'").
 */
const NOT_INHERITED = /^(QA_BASE_URL|DEMO_.*|PROBE_.*|NODE_EXTRA_CA_CERTS|NODE_OPTIONS|NODE_PATH|FORCE_COLOR|JEST_.*)$/;

/** A project holding `files`; with `tls`, its browser accepts that server certificate and Node trusts that CA. */
export async function createPlaywrightProject(files: Record<string, string>, tls?: { serverCertificate: string; ca: string }): Promise<PlaywrightProject> {
  const dir = await mkdtemp(join(tmpdir(), 'qa-check-source-'));
  const config = {
    testDir: '.',
    testMatch: '*.spec.ts',
    outputDir: './test-results',
    workers: 1,
    retries: 0,
    reporter: [['line'], ['json', { outputFile: './report.json' }]],
    use: {
      launchOptions: {
        executablePath: DEFAULT_BROWSER_EXECUTABLE_PATH,
        args: [...CHROMIUM_ARGS, ...(tls ? [`--ignore-certificate-errors-spki-list=${spkiHash(tls.serverCertificate)}`] : [])],
      },
    },
  };
  await writeFile(join(dir, 'playwright.config.ts'), `export default ${JSON.stringify(config, null, 2)};\n`);
  if (tls) await writeFile(join(dir, 'test-ca.pem'), tls.ca);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);

  return {
    dir,
    async run(env) {
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)));
      const childEnv = {
        ...inherited,
        FORCE_COLOR: '0',
        NODE_PATH: join(REPO, 'node_modules'),
        ...(tls ? { NODE_EXTRA_CA_CERTS: join(dir, 'test-ca.pem') } : {}),
        ...env,
      };
      await rm(join(dir, 'report.json'), { force: true });
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
        execFile(PLAYWRIGHT_CLI, ['test', '--config', join(dir, 'playwright.config.ts')], { cwd: REPO, env: childEnv, timeout: 50_000 }, (error, out, err) => {
          done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout: out, stderr: err });
        });
      });
      const output = `${stdout}\n${stderr}`;
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8').catch(() => '{}')) as { stats?: PlaywrightOutcome['stats'] };
      if (!report.stats) throw new Error(`playwright test wrote no JSON report (exit ${code}):\n${output}`);
      return { code, output, stats: report.stats };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
