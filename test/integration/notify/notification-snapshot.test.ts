import { afterEach, describe, expect, it } from '@jest/globals';
import type { EntitySubscriberInterface } from 'typeorm';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { readJobForNotification } from '../../../src/jobs/job-for-notification.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { useTestStore } from '../../support/dialects.js';
import { advance, chatContext, chatInput, jobServiceOn } from './notify-fixtures.js';

/**
 * A progress message is built from one read of the job; a run that finishes in the middle of that read must not
 * give a job still `running` with its final events (the delivery then counted the final events as shown and never
 * edited the final state in). MySQL only: there a second connection commits while the read is under way; SQLite
 * has one connection, so nothing can commit in between.
 */
describe('readJobForNotification', () => {
  const store = useTestStore('mysql');
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('sees the job row and its events as of one moment, even when the run finishes between the reads', async () => {
    const { principal, organization } = await createApiKey(store(), 'acme');
    const repositoryId = await insertRepository(store(), organization.id);
    const built = jobServiceOn(store());
    closers.push(built.close, () => built.queue.backend.disconnect());
    const { jobId } = await built.jobs.create(principal, chatInput(repositoryId, chatContext()));
    await advance(store(), jobId, 'job.started');

    // The run finishes (status and event in one commit, as the run recorder writes them) right after the job row
    // was loaded and before its events are: TypeORM awaits an entity subscriber's afterLoad before going on.
    let finished = false;
    const finishesRun: EntitySubscriberInterface<Job> = {
      listenTo: () => Job,
      async afterLoad(job) {
        if (finished || job.id !== jobId) return;
        finished = true;
        await advance(store(), jobId, 'job.passed');
      },
    };
    store().subscribers.push(finishesRun);
    const during = await readJobForNotification(store(), jobId).finally(() => store().subscribers.splice(store().subscribers.indexOf(finishesRun), 1));
    expect(finished).toBe(true);
    expect(during?.job.status).toBe('running');
    expect(during?.events.map((event) => event.type)).not.toContain('job.passed');

    const after = await readJobForNotification(store(), jobId);
    expect(after?.job.status).toBe('passed');
    expect(after?.events.map((event) => event.type)).toContain('job.passed');
  });
});
