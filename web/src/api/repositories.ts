/** The organization's connected repositories (GET /api/repositories), shared by the screens that name or pick one. */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { repositoryListSchema, type repositorySchema } from '../../../src/api/schemas/repositories.js';
import { api } from './client.js';

export type Repository = z.output<typeof repositorySchema>;

export const REPOSITORIES_KEY = ['repositories'] as const;

export function useRepositories() {
  return useQuery({
    queryKey: REPOSITORIES_KEY,
    queryFn: async ({ signal }) => (await api(repositoryListSchema, '/api/repositories', { signal })).repositories,
    staleTime: 60_000,
  });
}

/** `owner/name`, the way people name a repository. */
export const repositoryName = (repository: Pick<Repository, 'owner' | 'name'>) => `${repository.owner}/${repository.name}`;
