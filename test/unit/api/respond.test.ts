import { describe, expect, it } from '@jest/globals';
import { iso, responseOf } from '../../../src/api/respond.js';
import { artifactSchema } from '../../../src/api/schemas/jobs.js';
import { AppError } from '../../../src/core/errors.js';

const artifact = {
  id: '5f0c2a4e-3b1d-4c7e-9a2f-1d2e3f4a5b6c',
  kind: 'screenshot',
  name: 'step-0.png',
  contentType: 'image/png',
  sizeBytes: 3,
  sha256: 'a'.repeat(64),
  stepIndex: 0,
  createdAt: iso(new Date('2030-01-02T03:04:05.678Z')),
  downloadPath: '/api/jobs/x/artifacts/y',
};

describe('responseOf', () => {
  it('sends only what the schema names: a storage key built in by mistake never leaves', () => {
    expect(responseOf(artifactSchema, { ...artifact, storageKey: 'jobs/x/step-0.png' })).toEqual(artifact);
    expect(artifact.createdAt).toBe('2030-01-02T03:04:05.678Z');
  });

  it("makes an answer that does not fit the service's 500, not the client's 400", () => {
    let thrown: unknown;
    try {
      responseOf(artifactSchema, { ...artifact, sizeBytes: '3' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ kind: 'unexpected', status: 500, code: 'internal.response_mismatch' });
  });
});
