import type { RepositoryIndex } from '../../onboarding/model.js';
import { RepositoryIndexRecord } from '../../store/entities/repository-index.entity.js';
import { beginStep } from './begin-step.js';
import type { StepContext } from './types.js';

/**
 * Fetch and index as one checkpointed unit: the fetched folder is a temporary folder that no crash leaves behind, so
 * an attempt resumed after a crash in either step has nothing to index from and fetches again. What it fetches is
 * the commit the first fetch pinned (`revision.pinned`), never a branch head that moved since. The folder is removed
 * as soon as the index is built, whatever happens.
 */
export async function fetchAndIndexStep(context: StepContext): Promise<void> {
  const { deps, recorder, repository, signal, now } = context;
  await beginStep(context, 'fetch', { revision: context.revision });
  const fetched = await deps.ports.fetch({ repository, revision: context.revision, signal });
  try {
    await recorder.commit(async (writes) => {
      // A fetch again after a crash (of the pinned commit) is said as such: the fetch finished once already.
      if (writes.run.commitSha !== null) {
        await writes.event('step.repeated', { step: 'fetch', commitSha: fetched.commitSha, reason: 'the fetched folder does not outlive the attempt that made it' });
        return;
      }
      await writes.update({ commitSha: fetched.commitSha, counts: { files: fetched.files.length } });
      await writes.event('revision.pinned', { commitSha: fetched.commitSha });
      await writes.event('step.finished', { step: 'fetch', commitSha: fetched.commitSha, files: fetched.files.length });
    });
    context.revision = fetched.commitSha;
    await beginStep(context, 'index');
    const previous = await deps.dataSource.getRepository(RepositoryIndexRecord).findOneBy({ repositoryId: repository.id });
    const index = await deps.ports.index({ repository, fetched, previous: (previous?.content as RepositoryIndex | undefined) ?? null, signal });
    const counts = { routes: index.routes.length, filesRead: index.stats.filesRead, filesReused: index.stats.filesReused };
    await recorder.commit(async (writes) => {
      await writes.manager.upsert(
        RepositoryIndexRecord,
        { repositoryId: repository.id, organizationId: repository.organizationId, ingestionRunId: context.ingestionRunId, commitSha: fetched.commitSha, content: index, updatedAt: now() },
        ['repositoryId'],
      );
      await writes.update({ counts });
      await writes.event('step.finished', { step: 'index', ...counts, languages: Object.keys(index.languages), ms: index.stats.ms });
      await writes.checkpoint('fetch', { commitSha: fetched.commitSha, files: fetched.files.length });
      await writes.checkpoint('index', counts);
    });
  } finally {
    await fetched.remove();
  }
}
