import { Agenda, type NotificationChannel } from 'agenda';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import { NO_TELEMETRY, type Telemetry } from '../core/telemetry.js';
import { MySqlBackend } from './mysql-backend/index.js';

export interface QueueSettings {
  /** Cross-process poll interval (Agenda's processEvery). */
  pollIntervalMs: number;
  /** How long a claim holds before another worker may take the job over. */
  lockLifetimeMs: number;
  /** Runs of one kind of job (a browser run, say) one process runs at once: the worker's concurrency. */
  concurrency: number;
  /**
   * Slots beyond `concurrency` that only short jobs declared `light` (replies, progress messages) may use, so a
   * backlog of browser runs never holds up a chat reply or a progress edit. Default `LIGHT_JOB_SLOTS`.
   */
  lightSlots?: number;
}

/** Short jobs (a chat reply, a progress edit) one process may run besides its full load of browser runs. */
export const LIGHT_JOB_SLOTS = 4;

export interface Queue {
  agenda: Agenda;
  backend: MySqlBackend;
  /** This process's lock owner name (written to `last_modified_by` with every claim). */
  owner: string;
  /** The slots light jobs have beyond the worker's concurrency. */
  lightSlots: number;
  /** Where claims, takeovers and hand-backs are counted. */
  telemetry: Telemetry;
}

/**
 * Agenda on the project's MySQL backend over the store's DataSource. The table is created by migrations, so the
 * backend does not create schema; the DataSource is the store's, so Agenda never closes it.
 */
export function createQueue(dataSource: DataSource, settings: QueueSettings, notificationChannel: NotificationChannel, telemetry: Telemetry = NO_TELEMETRY): Queue {
  const owner = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const backend = new MySqlBackend({ dataSource }, {
    ensureSchema: false,
    notificationChannel,
    onClaim: ({ jobName, takeover }) => telemetry.queueClaim(jobName, takeover),
  });
  const total = settings.concurrency + (settings.lightSlots ?? LIGHT_JOB_SLOTS);
  const agenda = new Agenda({
    backend,
    name: owner,
    processEvery: settings.pollIntervalMs,
    maxConcurrency: total,
    // Agenda would otherwise lock every due job it finds and queue them locally; their locks age while they wait,
    // expire, and another worker runs the same job at once. Locked jobs include running ones, so this many locks
    // means no more than the free slots are ever claimed ahead: in all, and per kind of job (each kind may lock no
    // more than it may run).
    lockLimit: total,
    defaultConcurrency: settings.concurrency,
    defaultLockLimit: settings.concurrency,
    defaultLockLifetime: settings.lockLifetimeMs,
  });
  return { agenda, backend, owner, lightSlots: settings.lightSlots ?? LIGHT_JOB_SLOTS, telemetry };
}
