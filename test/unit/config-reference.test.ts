import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES, configDefault, loadConfig } from '../../src/config.js';
import { CONFIGURATION_DOC_PATH, referenceDrift, renderConfigurationDoc } from '../../src/cli/config-reference.js';

describe('docs/configuration.md', () => {
  it('is what the schema and the reference render (run `npm run docs:config` after changing either)', () => {
    expect(readFileSync(CONFIGURATION_DOC_PATH, 'utf8')).toBe(renderConfigurationDoc());
  });

  it('describes every variable loadConfig reads, once, and nothing else', () => {
    expect(referenceDrift()).toEqual({ undescribed: [], unknown: [], repeated: [] });
    const doc = readFileSync(CONFIGURATION_DOC_PATH, 'utf8');
    for (const name of CONFIG_VARIABLES) expect(doc).toContain(`\`${name}\``);
  });

  it("shows the defaults loadConfig applies to an empty environment", () => {
    const config = loadConfig({}, { isTTY: false });
    expect(configDefault('PORT')).toBe(String(config.http.port));
    expect(configDefault('QUEUE_POLL_INTERVAL_MS')).toBe(String(config.queue.pollIntervalMs));
    expect(configDefault('BROWSER_EXECUTABLE_PATH')).toBe(config.browser.executablePath);
    expect(configDefault('DATABASE_URL')).toBeUndefined();
    const doc = readFileSync(CONFIGURATION_DOC_PATH, 'utf8');
    expect(doc).toContain(`| \`WORKER_CONCURRENCY\` | \`${config.worker.concurrency}\` |`);
  });
});
