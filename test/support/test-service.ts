import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { Dialect } from '../../src/store/data-source.js';
import { startDemoApp, type DemoApp, type DemoAppOptions } from '../fixtures/demo-app/index.js';
import { startTestApi, type TestApi, type TestApiOptions } from './api-server.js';
import { useTestStore } from './dialects.js';
import { startTestWorker, type TestWorker, type TestWorkerOptions } from './qa-worker.js';

/** A worker and the API over one test store, for the tests of a describe block. */
export interface TestService {
  worker: TestWorker;
  api: TestApi;
  /** The block's test store (`useTestStore`). */
  store: () => DataSource;
}

/** The demo shop beside the service. */
export interface DemoService extends TestService {
  demo: DemoApp;
}

export interface TestServiceOptions {
  /** The API's options; it shares the worker's artifact storage. */
  api?: TestApiOptions;
  /** A function: options known only once earlier hooks ran (a fake API's address). */
  worker?: TestWorkerOptions | (() => TestWorkerOptions);
}

/**
 * A test store of `dialect` with a worker and the API over it, started once for the describe block and stopped after
 * it: the services start after the store opens and stop before it closes (the worker releases its locks there), as
 * Jest runs a block's hooks in the order they are declared.
 */
export function useTestService(dialect: Dialect, options: TestServiceOptions = {}): TestService {
  return useService(dialect, options, undefined);
}

/** `useTestService` with the demo shop, started before the worker and closed after it. */
export function useDemoService(dialect: Dialect, options: { demo?: DemoAppOptions; worker?: TestServiceOptions['worker'] } = {}): DemoService {
  return useService(dialect, { worker: options.worker }, options.demo ?? {}) as DemoService;
}

function useService(dialect: Dialect, options: TestServiceOptions, demo: DemoAppOptions | undefined): Partial<DemoService> & TestService {
  const service = {} as Partial<DemoService> & TestService;
  afterAll(async () => {
    await service.api?.close();
    await service.worker?.stop();
    await service.demo?.close();
  });
  const store = useTestStore(dialect);
  service.store = store;
  beforeAll(async () => {
    if (demo) service.demo = await startDemoApp(demo);
    service.worker = await startTestWorker(store(), typeof options.worker === 'function' ? options.worker() : options.worker);
    service.api = await startTestApi(store(), { artifacts: service.worker.artifacts, ...options.api });
  });
  return service;
}
