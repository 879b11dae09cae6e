/**
 * Every entity and every migration of the service, as classes (never globs: bundlers and tsx cannot follow them).
 * The one place that lists tables from other folders, so it is the one store module allowed to import them
 * (see eslint.config.js). Add a new entity or migration here in the same change that writes it.
 */
import { CreateOrganizationsAndApiKeys1763690000000 } from '../../migrations/1763690000000-create-organizations-and-api-keys.js';
import { CreateAgendaJobs1763700000000 } from '../../migrations/1763700000000-create-agenda-jobs.js';
import { CreateJobs1763710000000 } from '../../migrations/1763710000000-create-jobs.js';
import { CreateExecutionFlags1763720000000 } from '../../migrations/1763720000000-create-execution-flags.js';
import { CreateOwnerExclusionsAndInstallations1763730000000 } from '../../migrations/1763730000000-create-owner-exclusions-and-installations.js';
import { CreateIngestionRuns1763740000000 } from '../../migrations/1763740000000-create-ingestion-runs.js';
import { CreateRunRecords1763750000000 } from '../../migrations/1763750000000-create-run-records.js';
import { CreatePlansAndCheckVersions1763760000000 } from '../../migrations/1763760000000-create-plans-and-check-versions.js';
import { CreateSchedules1763770000000 } from '../../migrations/1763770000000-create-schedules.js';
import { AddJobRunAttempt1763780000000 } from '../../migrations/1763780000000-add-job-run-attempt.js';
import { CreateChatTables1763790000000 } from '../../migrations/1763790000000-create-chat-tables.js';
import { CreateJobNotifications1763795000000 } from '../../migrations/1763795000000-create-job-notifications.js';
import { AddFindingDisputes1763800000000 } from '../../migrations/1763800000000-add-finding-disputes.js';
import { MillisecondCreatedAt1763804000000 } from '../../migrations/1763804000000-millisecond-created-at.js';
import { IndexChatReceiptSettledAt1763806000000 } from '../../migrations/1763806000000-index-chat-receipt-settled-at.js';
import { AddJobSourceKeys1763810000000 } from '../../migrations/1763810000000-add-job-source-keys.js';
import { CreateWebhookReceipts1763815000000 } from '../../migrations/1763815000000-create-webhook-receipts.js';
import { AddFindingComparison1763820000000 } from '../../migrations/1763820000000-add-finding-comparison.js';
import { AddCheckVersionStates1763825000000 } from '../../migrations/1763825000000-add-check-version-states.js';
import { CreateReportedInstallations1763830000000 } from '../../migrations/1763830000000-create-reported-installations.js';
import { AddPullRequestRuns1763927492731 } from '../../migrations/1763927492731-add-pull-request-runs.js';
import { AddPullRequestHeadClosed1764000000000 } from '../../migrations/1764000000000-add-pull-request-head-closed.js';
import { CreateAccessDirectory1765100000000 } from '../../migrations/1765100000000-create-access-directory.js';
import { CreateSessions1765200000000 } from '../../migrations/1765200000000-create-sessions.js';
import { AddJobStartedBy1765200000001 } from '../../migrations/1765200000001-add-job-started-by.js';
import { AddJobListingIndexes1765300000000 } from '../../migrations/1765300000000-add-job-listing-indexes.js';
import { CreateOnboardingRecords1765400000000 } from '../../migrations/1765400000000-create-onboarding-records.js';
import { CreateDefaultBranchPushes1765450000000 } from '../../migrations/1765450000000-create-default-branch-pushes.js';
import { AgendaJobEntity } from '../queue/mysql-backend/agenda-job.entity.js';
import { ApiKey } from './entities/api-key.entity.js';
import { Artifact } from './entities/artifact.entity.js';
import { ChatChannelBinding } from './entities/chat-channel-binding.entity.js';
import { ChatEventReceipt } from './entities/chat-event-receipt.entity.js';
import { ChatWorkspace } from './entities/chat-workspace.entity.js';
import { Check } from './entities/check.entity.js';
import { DefaultBranchPush } from './entities/default-branch-push.entity.js';
import { CheckDispute } from './entities/check-dispute.entity.js';
import { CheckVersion } from './entities/check-version.entity.js';
import { DirectoryConnection } from './entities/directory-connection.entity.js';
import { DirectoryInvitation } from './entities/directory-invitation.entity.js';
import { DirectoryMembership } from './entities/directory-membership.entity.js';
import { DirectoryOrganizationLink } from './entities/directory-organization-link.entity.js';
import { DirectoryOrganization } from './entities/directory-organization.entity.js';
import { DirectoryUser } from './entities/directory-user.entity.js';
import { ExcludedOwner } from './entities/excluded-owner.entity.js';
import { ExecutionFlag } from './entities/execution-flag.entity.js';
import { Finding } from './entities/finding.entity.js';
import { IngestionRun } from './entities/ingestion-run.entity.js';
import { Installation } from './entities/installation.entity.js';
import { ConnectedRepository } from './entities/connected-repository.entity.js';
import { JobCheckpoint } from './entities/job-checkpoint.entity.js';
import { JobEvent } from './entities/job-event.entity.js';
import { JobNotification } from './entities/job-notification.entity.js';
import { Job } from './entities/job.entity.js';
import { Organization } from './entities/organization.entity.js';
import { PreviewDeployment } from './entities/preview-deployment.entity.js';
import { PullRequestHead } from './entities/pull-request-head.entity.js';
import { ReportedInstallation } from './entities/reported-installation.entity.js';
import { ReportedInstallationRepository } from './entities/reported-installation-repository.entity.js';
import { Schedule } from './entities/schedule.entity.js';
import { ScheduleFire } from './entities/schedule-fire.entity.js';
import { WebhookReceipt } from './entities/webhook-receipt.entity.js';
import { Session } from './entities/session.entity.js';
import { CatalogBuild } from './entities/catalog-build.entity.js';
import { CoverageLinkRecord } from './entities/coverage-link.entity.js';
import { IngestionCheckpoint } from './entities/ingestion-checkpoint.entity.js';
import { IngestionEvent } from './entities/ingestion-event.entity.js';
import { RepositoryFlow } from './entities/repository-flow.entity.js';
import { RepositoryIndexRecord } from './entities/repository-index.entity.js';
import { SignInAttempt } from './entities/sign-in-attempt.entity.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own element type for these lists
export type ClassList = readonly Function[];

export const entities: ClassList = [Organization, ApiKey, AgendaJobEntity, ConnectedRepository, Check, Job, JobEvent, ExecutionFlag, ExcludedOwner, Installation, IngestionRun, Artifact, Finding, JobCheckpoint, CheckVersion, Schedule, ScheduleFire, JobNotification, CheckDispute, ChatWorkspace, ChatChannelBinding, ChatEventReceipt, WebhookReceipt, ReportedInstallation, ReportedInstallationRepository, PullRequestHead, PreviewDeployment, DirectoryUser, DirectoryOrganization, DirectoryOrganizationLink, DirectoryMembership, DirectoryInvitation, DirectoryConnection, Session, SignInAttempt, DefaultBranchPush, IngestionEvent, IngestionCheckpoint, RepositoryIndexRecord, RepositoryFlow, CoverageLinkRecord, CatalogBuild];

/** In timestamp order; TypeORM runs pending migrations in this order. */
export const migrations: ClassList = [
  CreateOrganizationsAndApiKeys1763690000000,
  CreateAgendaJobs1763700000000,
  CreateJobs1763710000000,
  CreateExecutionFlags1763720000000,
  CreateOwnerExclusionsAndInstallations1763730000000,
  CreateIngestionRuns1763740000000,
  CreateRunRecords1763750000000,
  CreatePlansAndCheckVersions1763760000000,
  CreateSchedules1763770000000,
  AddJobRunAttempt1763780000000,
  CreateChatTables1763790000000,
  CreateJobNotifications1763795000000,
  AddFindingDisputes1763800000000,
  MillisecondCreatedAt1763804000000,
  IndexChatReceiptSettledAt1763806000000,
  AddJobSourceKeys1763810000000,
  CreateWebhookReceipts1763815000000,
  AddFindingComparison1763820000000,
  AddCheckVersionStates1763825000000,
  CreateReportedInstallations1763830000000,
  AddPullRequestRuns1763927492731,
  AddPullRequestHeadClosed1764000000000,
  CreateAccessDirectory1765100000000,
  CreateSessions1765200000000,
  AddJobStartedBy1765200000001,
  AddJobListingIndexes1765300000000,
  CreateOnboardingRecords1765400000000,
  CreateDefaultBranchPushes1765450000000,
];
