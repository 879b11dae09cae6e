export { MySqlBackend, type MySqlBackendConnection, type MySqlBackendOptions } from './backend.js';
export { InProcessNotificationChannel } from './in-process-channel.js';
export { SqlJobRepository, type StagedInsert } from './repository.js';
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
