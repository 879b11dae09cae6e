import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { Dialect } from '../../src/store/data-source.js';
import { startDemoApp, type DemoApp, type DemoAppOptions } from '../fixtures/demo-app/index.js';
import { startTestApi, type TestApi } from './api-server.js';
import { useTestStore } from './dialects.js';
import { startTestWorker, type TestWorker, type TestWorkerOptions } from './qa-worker.js';

/** The demo shop, a worker and the API over one test store, for the tests of a describe block. */
export interface DemoService {
  demo: DemoApp;
  worker: TestWorker;
  api: TestApi;
  /** The block's test store (`useTestStore`). */
  store: () => DataSource;
}

/**
 * A test store of `dialect` with the demo shop, a worker and the API over it, started once for the describe block and
 * stopped after it: the services start after the store opens and stop before it closes (the worker releases its
 * locks there), as Jest runs a block's hooks in the order they are declared.
 */
export function useDemoService(dialect: Dialect, options: { demo?: DemoAppOptions; worker?: TestWorkerOptions | (() => TestWorkerOptions) } = {}): DemoService {
  const service = {} as DemoService;
  afterAll(async () => {
    await service.api?.close();
    await service.worker?.stop();
    await service.demo?.close();
  });
  const store = useTestStore(dialect);
  service.store = store;
  beforeAll(async () => {
    service.demo = await startDemoApp(options.demo);
    // A function: options known only once earlier hooks ran (a fake API's address).
    service.worker = await startTestWorker(store(), typeof options.worker === 'function' ? options.worker() : options.worker);
    service.api = await startTestApi(store(), { artifacts: service.worker.artifacts });
  });
  return service;
}
