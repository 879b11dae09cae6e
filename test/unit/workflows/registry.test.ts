import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { WebhookReceipts } from '../../../src/jobs/webhooks/webhook-receipts.js';
import { ONBOARDING_JOB } from '../../../src/workflows/onboarding.js';
import type { QaRunDeps } from '../../../src/workflows/qa-run.js';
import { QUEUE_JOB_NAMES, workerJobs } from '../../../src/workflows/registry.js';
import { silentLogger } from '../../support/logger.js';

// The definitions only close over their parts; nothing is called until a job runs.
const runs = { dataSource: {} as DataSource } as QaRunDeps;
const everyPart = {
  runs,
  schedules: { createJob: async () => { throw new Error('not called'); }, removeRepeat: async () => undefined },
  deliveries: { sinks: {}, settings: { minIntervalMs: 1_000, publicBaseUrl: 'https://qa.example.com' }, logger: silentLogger() },
  chat: { handleEvent: async () => undefined, receiptRetentionHours: 24 },
  webhooks: { receipts: {} as WebhookReceipts, handlers: {} },
};

describe('the worker’s queue jobs (workflows/registry.ts)', () => {
  it('defines every kind of queued work once, but onboarding, whose handler has not landed', () => {
    const names = workerJobs(everyPart).map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(QUEUE_JOB_NAMES.filter((name) => name !== ONBOARDING_JOB).sort());
  });

  it('leaves the jobs of a part the process does not have queued for a worker that has it', () => {
    expect(workerJobs({ runs }).map((job) => job.name)).toEqual(['qa-run']);
    expect(workerJobs({ runs, chat: everyPart.chat }).map((job) => job.name)).toEqual(['qa-run', 'chat-event', 'chat-receipt-purge']);
  });
});
