/**
 * The comparison of a failed expectation goes through the run's one writer like every other text: secret values
 * scrubbed (a field showing a typed secret), then bounded; a finding without one stores null for both.
 */
import { expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { FINDING_ACTUAL_ITEMS_MAX } from '../../../src/core/findings.js';
import { createScrubber, SECRET_MASK } from '../../../src/core/secrets.js';
import { createApiKey } from '../../../src/identity/api-keys.js';
import { Finding } from '../../../src/store/entities/finding.entity.js';
import { Job } from '../../../src/store/entities/job.entity.js';
import { createRunRecorder, takeRunToken } from '../../../src/workflows/run-recorder.js';
import { insertRepository } from '../../support/check-fixtures.js';
import { forEachDialect, useTestStore } from '../../support/dialects.js';

const SECRET = 'hunter2-correct-horse';

forEachDialect('run recorder: comparisons of failed expectations', (dialect) => {
  const store = useTestStore(dialect);

  it('stores expected and actual scrubbed and bounded, and null for a finding without a comparison', async () => {
    const { organization } = await createApiKey(store(), `acme-${randomUUID()}`);
    const repositoryId = await insertRepository(store(), organization.id);
    const jobId = randomUUID();
    await store().getRepository(Job).insert({
      id: jobId, organizationId: organization.id, repositoryId, checkId: null, parentJobId: null, status: 'queued', task: 'Check the Email field',
      baseUrl: 'https://shop.example', commitSha: null, trigger: 'cli', networkAllowlist: [], channelContext: null, resolution: null, plan: null, workflowId: null, updatedAt: new Date(),
    });
    const recorder = createRunRecorder(store(), { jobId, organizationId: organization.id, attempt: await takeRunToken(store(), jobId), scrubber: createScrubber([SECRET]) });
    const actual = [`Signed in as ${SECRET}`, ...Array.from({ length: 20 }, (_, i) => `Heading ${i}`)];

    await recorder.commit(async (writes) => {
      await writes.findings(
        [
          { kind: 'assertion_failed', severity: 'error', stepIndex: 0, title: 'Step 1 failed', detail: 'No heading shows it', expected: `Welcome ${SECRET}`, actual },
          { kind: 'console_error', severity: 'warning', stepIndex: 0, title: 'The page logged an error', detail: 'TypeError' },
        ],
        [],
      );
    });

    const [compared, plain] = await store().getRepository(Finding).find({ where: { jobId }, order: { position: 'ASC' } });
    expect(compared).toMatchObject({ expected: `Welcome ${SECRET_MASK}` });
    expect(compared!.actual).toHaveLength(FINDING_ACTUAL_ITEMS_MAX);
    expect(compared!.actual![0]).toBe(`Signed in as ${SECRET_MASK}`);
    expect(JSON.stringify(compared)).not.toContain('hunter');
    expect(plain).toMatchObject({ expected: null, actual: null });
  });
});
