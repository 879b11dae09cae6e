/**
 * A V8 CPU profile of this process over a stretch of a bench (the service's side of it), written where Chrome
 * DevTools' Performance panel and `node --cpu-prof` tools open it (a `.cpuprofile` file).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

export interface CpuProfile {
  stop(file: string): Promise<void>;
}

export async function startCpuProfile(): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
