/**
 * Agenda's storage on MySQL, MariaDB and SQLite, written to be published on its own: it imports no module of the
 * service (eslint's `queue/mysql-backend` zone), so its errors are plain `Error`s in its own words, like any library's,
 * not codes of the service's catalogue. What reaches a queue job is judged there (src/queue/retry-policy.ts).
 */
export { MySqlBackend, type MySqlBackendConnection, type MySqlBackendOptions } from './backend.js';
export { InProcessNotificationChannel } from './in-process-channel.js';
export { SqlJobRepository, type ClaimListener, type StagedInsert } from './repository.js';
export type { Statement } from './sql-executor.js';
export type { ClaimOrder } from './claim.js';
export { AgendaJobEntity } from './agenda-job.entity.js';
export {
  agendaJobsTableV1,
  createAgendaJobsTableV1,
  dropAgendaJobsTableV1,
  ensureAgendaJobsTable,
  DEFAULT_TABLE_NAME,
} from './schema.js';
