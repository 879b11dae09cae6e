/** The organization's checks (GET /api/checks, newest first) for picking one to replay, and one check by id. */
import { useQuery } from '@tanstack/react-query';
import { checkSchemas, type CheckSummaryA } from '../../../src/api/schemas/checks.js';
import { api } from './client.js';

/** A check as the list answers it (Set A names). */
export type CheckItem = CheckSummaryA;

/** The API's most: the picker offers the newest this many. */
const CHECKS_LIMIT = 200;

export function useChecks() {
  return useQuery({
    queryKey: ['checks', 'list', CHECKS_LIMIT],
    queryFn: async ({ signal }) => (await api(checkSchemas.A.list, `/api/checks?limit=${CHECKS_LIMIT}`, { signal })).checks as CheckItem[],
    staleTime: 30_000,
  });
}

/** One check (for a `?testId=` older than the newest the list offers); disabled without an id. */
export function useCheck(testId: string | undefined) {
  return useQuery({
    queryKey: ['checks', 'one', testId],
    queryFn: async ({ signal }) => (await api(checkSchemas.A.detail, `/api/checks/${encodeURIComponent(testId!)}`, { signal })).check as CheckItem,
    enabled: testId !== undefined,
  });
}
