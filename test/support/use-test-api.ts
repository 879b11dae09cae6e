import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { startTestApi, type TestApi, type TestApiOptions } from './api-server.js';

/**
 * `startTestApi` over the block's test store, for the tests of a describe block: started before them, closed after
 * them. The answer reads the running API, so a test uses it as it would the started one (`api.base`).
 */
export function useTestApi(store: () => DataSource, options: TestApiOptions = {}): TestApi {
  let started: TestApi | undefined;
  beforeAll(async () => {
    started = await startTestApi(store(), options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): TestApi => {
    if (!started) throw new Error('useTestApi: the API starts in a beforeAll hook; read it in a test or a later hook');
    return started;
  };
  return {
    get base() { return running().base; },
    get queue() { return running().queue; },
    get feed() { return running().feed; },
    get updates() { return running().updates; },
    get jobs() { return running().jobs; },
    get app() { return running().app; },
    close: () => running().close(),
  };
}
