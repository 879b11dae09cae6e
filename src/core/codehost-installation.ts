import { z } from 'zod';
import { webhookPayloadInvalid } from './webhook-receipt.js';

/**
 * What the code host reports about its app's installations (`installation` and `installation_repositories` events,
 * GitHub's payloads), reduced to the change to record. Recording an installation never connects it to an
 * organization: an administrator does that (`qa installations connect`).
 *
 * Deliveries can arrive twice and out of order, so every change carries the time the code host says it happened
 * (`reportedAt`), and a stored state is replaced only by a change at least as recent. A deleted installation is a
 * tombstone: GitHub never reuses installation ids, so nothing reported after (or delivered late) brings it back.
 */
export type ReportedInstallationStatus = 'active' | 'suspended' | 'deleted';

export interface ReportedRepository {
  /** The code host's repository id (stable across renames). */
  repositoryId: string;
  /** `owner/name` as reported. */
  fullName: string;
  private: boolean;
}

export interface InstallationChange {
  installationId: string;
  account: { login: string; type: string };
  /** `all` or `selected`. */
  repositorySelection: string;
  /** The installation's status after this event; undefined when the event does not change it. */
  status: ReportedInstallationStatus | undefined;
  /** When the code host says the change happened (its timestamps, second precision). */
  reportedAt: Date;
  /** Repositories the event says the installation now has access to. */
  added: ReportedRepository[];
  /** Repositories the event says it no longer has access to. */
  removed: ReportedRepository[];
}

/** The events handled here, and what happens to the others: acknowledged, recorded as receipts, no effect. */
export const INSTALLATION_EVENTS = ['installation', 'installation_repositories'] as const;

// GitHub sends these either as Unix seconds or as ISO 8601 strings (both appear in its recorded payloads).
const timestamp = z.union([z.number().int().nonnegative(), z.string().min(1)]).transform((value, context) => {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  if (Number.isNaN(date.getTime())) {
    context.addIssue({ code: 'custom', message: 'is not a timestamp' });
    return z.NEVER;
  }
  return date;
});

const repository = z.object({ id: z.number().int().positive(), full_name: z.string().min(3).max(200), private: z.boolean() });

const installation = z.object({
  id: z.number().int().positive(),
  account: z.object({ login: z.string().min(1).max(100), type: z.string().min(1).max(32) }),
  repository_selection: z.string().min(1).max(16),
  created_at: timestamp,
  updated_at: timestamp,
  suspended_at: timestamp.nullable().optional(),
});

const installationEvent = z.object({
  action: z.string(),
  installation,
  repositories: z.array(repository).optional(),
});

const installationRepositoriesEvent = z.object({
  action: z.string(),
  installation,
  repository_selection: z.string().min(1).max(16),
  repositories_added: z.array(repository),
  repositories_removed: z.array(z.object({ id: z.number().int().positive(), full_name: z.string().min(3).max(200), private: z.boolean().optional() })),
});

const STATUS_BY_ACTION: Record<string, ReportedInstallationStatus> = { created: 'active', unsuspend: 'active', suspend: 'suspended', deleted: 'deleted' };
const REPOSITORY_ACTIONS = new Set(['added', 'removed']);

const reported = (repo: { id: number; full_name: string; private?: boolean }): ReportedRepository => ({
  repositoryId: String(repo.id),
  fullName: repo.full_name,
  private: repo.private ?? true,
});

/** The latest of the installation's own timestamps: the best the payload says about when this event happened. */
function latest(...dates: (Date | null | undefined)[]): Date {
  return new Date(Math.max(...dates.filter((date): date is Date => date instanceof Date).map((date) => date.getTime())));
}


/**
 * The change an `installation` or `installation_repositories` delivery reports, or undefined for an action that
 * records nothing (`new_permissions_accepted`, …). A payload of the wrong shape is a coded error
 * (`webhook.payload_invalid`).
 */
export function installationChange(event: string, payload: unknown): InstallationChange | undefined {
  if (event === 'installation') {
    const parsed = installationEvent.safeParse(payload);
    if (!parsed.success) throw webhookPayloadInvalid(event, parsed.error);
    const { action, installation: found, repositories } = parsed.data;
    const status = STATUS_BY_ACTION[action];
    if (status === undefined) return undefined;
    return {
      installationId: String(found.id),
      account: found.account,
      repositorySelection: found.repository_selection,
      status,
      reportedAt: latest(found.created_at, found.updated_at, found.suspended_at),
      // `created` lists the repositories of a `selected` installation; the others' lists are not changes.
      added: action === 'created' ? (repositories ?? []).map(reported) : [],
      removed: [],
    };
  }
  if (event === 'installation_repositories') {
    const parsed = installationRepositoriesEvent.safeParse(payload);
    if (!parsed.success) throw webhookPayloadInvalid(event, parsed.error);
    const { action, installation: found } = parsed.data;
    if (!REPOSITORY_ACTIONS.has(action)) return undefined;
    return {
      installationId: String(found.id),
      account: found.account,
      repositorySelection: parsed.data.repository_selection,
      status: undefined,
      reportedAt: latest(found.created_at, found.updated_at, found.suspended_at),
      added: parsed.data.repositories_added.map(reported),
      removed: parsed.data.repositories_removed.map(reported),
    };
  }
  return undefined;
}
