import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../../src/logger.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes one JSON object per line at or above the level, with an ISO time', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json' }, out.stream);

    logger.debug('hidden');
    logger.child({ jobId: 'j1' }).info({ step: 'open' }, 'job started');

    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'job started', jobId: 'j1', step: 'open' });
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('never writes secrets found under the redacted paths', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json' }, out.stream);

    logger.info({ req: { headers: { authorization: 'Bearer qa_abc_def' } }, db: { password: 'hunter2' } }, 'hello');

    expect(out.text()).not.toContain('qa_abc_def');
    expect(out.text()).not.toContain('hunter2');
    expect(out.text()).toContain('[redacted]');
  });

  it('writes human-readable lines in pretty format', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'pretty' }, out.stream);

    logger.info({ jobId: 'j1' }, 'job started');

    expect(out.text()).toContain('job started');
    expect(out.text()).toContain('jobId');
    expect(() => JSON.parse(out.text()) as unknown).toThrow();
  });
});
