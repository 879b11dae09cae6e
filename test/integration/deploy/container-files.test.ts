/**
 * The container image and the compose file, tested where no container engine runs (docs/operations.md says why):
 * every variable they set is one src/config.ts reads and accepts, the roles they start are qa's verbs, the image is
 * non-root with Debian's headless shell where the service looks for it, and the entry point runs the real CLI.
 */
import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, DEFAULT_BROWSER_EXECUTABLE_PATH, loadConfig } from '../../../src/config.js';
import { createProgram } from '../../../src/cli/program.js';
import { createCliContext } from '../../../src/cli/context.js';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
}

const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const dockerfile = readFileSync('Dockerfile', 'utf8');
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
const QA_SERVICES = ['migrate', 'serve', 'worker'] as const;

/** `ENV A=1 \ B=2` lines of the runtime stage, as the image's environment. */
function imageEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  const block = /^ENV ((?:[^\n]*\\\n)*[^\n]*)/m.exec(runtimeStage)?.[1] ?? '';
  for (const [, name, value] of block.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[name!] = value!;
  return env;
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['docker/entrypoint.sh', ...args], { env: { PATH: process.env.PATH ?? '', QA_APP_DIR: process.cwd(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('compose.yaml', () => {
  it('sets only variables src/config.ts reads, and each qa service configuration loads with the image environment', () => {
    const known = new Set<string>(CONFIG_VARIABLES);
    for (const name of QA_SERVICES) {
      const service = compose.services[name]!;
      const environment = { ...imageEnvironment(), ...service.environment };
      const unknown = Object.keys(environment).filter((variable) => variable !== 'NODE_ENV' && !known.has(variable));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
      const config = loadConfig(environment, { isTTY: false });
      expect(config.database).toEqual({ kind: 'mysql', url: 'mysql://qa:qa-password@mariadb:3306/qa' });
      expect(config.queue.redisUrl).toBe('redis://redis:6379');
      expect(config.artifacts.dir).toBe('/data/artifacts');
    }
  });

  it('runs qa migrate once before one serve and two workers, which share the artifacts volume', () => {
    const { migrate, serve, worker, mariadb } = compose.services;
    expect(migrate!.command).toEqual(['migrate']);
    expect(serve!.command).toEqual(['serve']);
    expect(worker!.command).toEqual(['worker']);
    expect(worker!.deploy?.replicas).toBe(2);
    for (const service of [serve!, worker!]) {
      expect(service.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(service.volumes).toContain('artifacts:/data/artifacts');
    }
    expect(mariadb!.healthcheck?.test).toBeDefined();
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['artifacts', 'database']));
    const serveConfig = loadConfig({ ...imageEnvironment(), ...serve!.environment }, { isTTY: false });
    expect(serveConfig.http).toEqual({ host: '0.0.0.0', port: 3000 });
    // A worker has no API: its health and metrics answer on METRICS_PORT, where its healthcheck asks.
    const workerConfig = loadConfig({ ...imageEnvironment(), ...worker!.environment }, { isTTY: false });
    expect(workerConfig.metrics.port).toBe(9464);
    expect(worker!.healthcheck?.test?.join(' ')).toContain(`:${workerConfig.metrics.port}/readyz`);
  });

  it("starts only qa's own verbs", () => {
    const verbs = createProgram(createCliContext()).commands.map((command) => command.name());
    for (const name of QA_SERVICES) expect(verbs).toContain(compose.services[name]!.command![0]);
  });
});

describe('Dockerfile', () => {
  it('runs as a non-root user on Debian with Node 20 or later and the browser the service looks for, without dev dependencies', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(2[0-9]|[3-9][0-9])-bookworm-slim$/m);
    expect(runtimeStage).toMatch(/^USER node$/m);
    expect(runtimeStage).toContain('chromium-headless-shell');
    expect(imageEnvironment().BROWSER_EXECUTABLE_PATH).toBe(DEFAULT_BROWSER_EXECUTABLE_PATH);
    expect(dockerfile).toContain('npm prune --omit=dev');
    expect(runtimeStage).toContain('COPY --from=build /app/node_modules ./node_modules');
    expect(runtimeStage).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "\/usr\/local\/bin\/qa-entrypoint"\]$/m);
    expect(runtimeStage).toMatch(/^CMD \["start"\]$/m);
    expect(loadConfig(imageEnvironment(), { isTTY: false }).database).toEqual({ kind: 'sqlite', path: '/data/qa.sqlite' });
  });
});

describe('the entry point (docker/entrypoint.sh)', () => {
  it('runs the qa CLI with the arguments given', async () => {
    const help = await run(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: qa');
    const folder = mkdtempSync(join(tmpdir(), 'qa-entrypoint-'));
    try {
      const migrated = await run(['migrate'], { SQLITE_PATH: join(folder, 'qa.sqlite'), LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
      expect(migrated.code).toBe(0);
      expect(migrated.stdout + migrated.stderr).toContain('database schema is up to date');
      const wrong = await run(['serve'], { SQLITE_PATH: join(folder, 'qa.sqlite'), PORT: 'not-a-port' });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('PORT');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
