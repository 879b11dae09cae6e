/**
 * Every error code the service and its CLI raise or match on, in one place. Codes are a client contract (the HTTP
 * body's `error.code`, the CLI's messages, chat and webhook logs to come): add codes, never reword one. `AppError`
 * accepts only a code from here, so a typo or an unlisted code fails the typecheck.
 *
 * Each entry: the code, the kind and HTTP status it is raised with where they are fixed, and what it means. No
 * `status`: the error carries none (it never reaches HTTP), or its status comes from elsewhere (Express's parser).
 */

/**
 * - `user`: the caller can fix it (bad input, unknown id, wrong key). Safe to show the message.
 * - `operational`: the environment failed (database down, timeout). Retrying may help; tell the operator what to do.
 * - `unexpected`: a bug. Show a generic message outside, log everything inside.
 */
export type ErrorKind = 'user' | 'operational' | 'unexpected';

export interface ErrorCodeEntry {
  code: string;
  /** Absent when it depends on the answer (`api.bad_response`: a 5xx is operational, a 4xx the user's). */
  kind?: ErrorKind;
  status?: number;
  meaning: string;
}

/** What `notFoundError(what)` may name: each has its `<what>.not_found` entry below (HTTP 404). */
export const NOT_FOUND_RESOURCES = ['job', 'check', 'check_version', 'schedule', 'repository', 'artifact', 'finding', 'ingestion'] as const;
export type NotFoundResource = (typeof NOT_FOUND_RESOURCES)[number];

export const ERROR_CATALOGUE = {
  // The HTTP edge: authentication, request parsing, routing, and the service's own faults.
  AuthUnauthorized: { code: 'auth.unauthorized', kind: 'user', status: 401, meaning: 'The API key is missing, malformed, unknown or revoked' },
  AuthNoPrincipal: { code: 'auth.no_principal', kind: 'unexpected', status: 500, meaning: 'A route that needs a caller is mounted without authentication' },
  RequestInvalid: { code: 'request.invalid', kind: 'user', status: 400, meaning: 'A request field fails its schema; details.field names the first' },
  RequestInvalidJson: { code: 'request.invalid_json', kind: 'user', status: 400, meaning: 'The body is not valid JSON' },
  RequestTooLarge: { code: 'request.too_large', kind: 'user', status: 413, meaning: 'The body is over the size limit' },
  RequestInvalidPath: { code: 'request.invalid_path', kind: 'user', status: 400, meaning: 'The path is not validly percent-encoded' },
  RequestUnreadable: { code: 'request.unreadable', kind: 'user', meaning: 'The body cannot be read (charset, encoding); the 4xx Express chose' },
  RequestInvalidCursor: { code: 'request.invalid_cursor', kind: 'user', status: 400, meaning: "A list's `cursor` or the updates stream's `after` that is not one this list or stream handed out" },
  RouteNotFound: { code: 'route.not_found', kind: 'user', status: 404, meaning: 'No endpoint at that method and path' },
  McpMethodNotAllowed: { code: 'mcp.method_not_allowed', kind: 'user', status: 405, meaning: 'The MCP endpoint (/mcp) is stateless: POST only, with no server-sent stream to open (GET) and no session to end (DELETE)' },
  MetricsUnauthorized: { code: 'metrics.unauthorized', kind: 'user', status: 401, meaning: 'METRICS_TOKEN is set and the request to /metrics has no matching Authorization: Bearer token' },
  InternalUnexpected: { code: 'internal.unexpected', kind: 'unexpected', status: 500, meaning: 'Anything thrown that is not an AppError: a bug' },
  InternalResponseMismatch: { code: 'internal.response_mismatch', kind: 'unexpected', status: 500, meaning: 'An answer does not fit its response schema' },

  // People: sign-in, sessions, their CSRF token, and what a person may do in an organization.
  SetupRequired: { code: 'setup.required', kind: 'user', status: 403, meaning: "A signed-in person the access directory does not have yet (user, organization or active membership): no organization data until then; details.missing" },
  ApiKeyNotFound: { code: 'api_key.not_found', kind: 'user', status: 404, meaning: 'No live API key with that prefix in this organization' },
  InstallationNotReported: { code: 'installation.not_reported', kind: 'user', status: 404, meaning: 'The code host has reported no active installation with that id (it is connected once its installation webhook arrived)' },
  InstallationConnectedElsewhere: { code: 'installation.connected_elsewhere', kind: 'user', status: 409, meaning: 'The installation is connected to another organization; only an operator moves it (qa installations connect)' },
  RoleForbidden: { code: 'role.forbidden', kind: 'user', status: 403, meaning: 'The action is for organization admins (signed-in people with the admin role); members and API keys may not' },
  CsrfRefused: { code: 'csrf.refused', kind: 'user', status: 403, meaning: 'A state-changing request with a session cookie lacks the x-csrf-token of its session, or comes from another origin' },
  SigninFailed: { code: 'signin.failed', kind: 'user', status: 400, meaning: "The provider's answer to a sign-in failed a check (state, code, ID token, nonce); start again at /auth/login" },
  SigninUnavailable: { code: 'signin.unavailable', kind: 'operational', status: 502, meaning: 'The identity provider could not be reached or answered badly' },
  SessionOrganizationUnavailable: { code: 'session.organization_unavailable', kind: 'user', status: 404, meaning: 'The signed-in person has no active membership in that organization' },

  // Ids the caller's organization does not have (also another organization's ids, and ids in a non-canonical form).
  JobNotFound: { code: 'job.not_found', kind: 'user', status: 404, meaning: 'No job with that id in this organization; in a worker (HTTP-less 400), the job was deleted' },
  CheckNotFound: { code: 'check.not_found', kind: 'user', status: 404, meaning: 'No check with that id in this organization' },
  CheckVersionNotFound: { code: 'check_version.not_found', kind: 'user', status: 404, meaning: 'The check has no version with that number' },
  ScheduleNotFound: { code: 'schedule.not_found', kind: 'user', status: 404, meaning: 'No schedule with that id in this organization' },
  RepositoryNotFound: { code: 'repository.not_found', kind: 'user', status: 404, meaning: 'No repository with that id in this organization' },
  IngestionNotFound: { code: 'ingestion.not_found', kind: 'user', status: 404, meaning: 'No ingestion run with that id in this organization' },
  ArtifactNotFound: { code: 'artifact.not_found', kind: 'user', status: 404, meaning: 'No artifact with that id on that job' },
  FindingNotFound: { code: 'finding.not_found', kind: 'user', status: 404, meaning: 'No finding with that id on that job (details.field: findingIds)' },

  // Jobs: creation, answers, cancellation, the lifecycle.
  JobNotCancellable: { code: 'job.not_cancellable', kind: 'user', status: 409, meaning: 'Only a queued, running or review_required job can be cancelled' },
  JobNotAwaitingAnswers: { code: 'job.not_awaiting_answers', kind: 'user', status: 409, meaning: 'Only a review_required job takes clarification answers' },
  JobInvalidTransition: { code: 'job.invalid_transition', kind: 'user', status: 409, meaning: 'The job lifecycle does not allow that status to follow the current one' },
  JobStartFailed: { code: 'job.start_failed', kind: 'operational', status: 503, meaning: "The job's workflow could not be started; nothing was recorded" },
  JobNotPassed: { code: 'job.not_passed', kind: 'user', meaning: 'CLI: a followed job ended without passing (exit code 1)' },
  ReplayNotPassed: { code: 'replay.not_passed', kind: 'user', meaning: 'CLI: `qa replay` ended with a check that failed or errored (exit code 1)' },
  ReplayTimedOut: { code: 'replay.timed_out', kind: 'user', meaning: 'CLI: `qa replay` ran out of time or was stopped; the replays left running were cancelled (exit code 3)' },
  ClarificationAnswerCount: { code: 'clarification.answer_count', kind: 'user', status: 400, meaning: 'Not exactly one answer per question' },
  ExecutionPaused: { code: 'execution.paused', kind: 'operational', status: 503, meaning: 'An operator paused the capability the work needs; details.capability' },
  PlannerFailed: { code: 'planner.failed', kind: 'operational', status: 502, meaning: 'The model planner answered badly twice; the job is recorded as errored' },
  JobChannelContextInvalid: { code: 'job.channel_context_invalid', kind: 'user', status: 400, meaning: 'channelContext names a notified channel (chat) without what delivering there needs; details.issues' },
  RunNotRepeated: { code: 'run.not_repeated', kind: 'user', status: 400, meaning: 'A run that may have caused a real side effect is not repeated after an interruption' },

  // Disputes: "not a bug" on a failed job's findings (src/jobs/finding-disputes.ts).
  DisputeJobNotFailed: { code: 'dispute.job_not_failed', kind: 'user', status: 409, meaning: "Only a failed job's findings can be disputed" },
  DisputeReasonInvalid: { code: 'dispute.reason_invalid', kind: 'user', status: 400, meaning: 'The reason is empty once trimmed, or longer than 1000 characters' },
  DisputeByInvalid: { code: 'dispute.by_invalid', kind: 'user', status: 400, meaning: 'Who disputes is empty once trimmed, or longer than 200 characters' },
  DisputeFindingIdsInvalid: { code: 'dispute.finding_ids_invalid', kind: 'user', status: 400, meaning: 'findingIds is empty, repeats an id, or names more than 100' },

  // Checks: the stored, compiled form of a job and its generated source.
  CheckOtherRepository: { code: 'check.other_repository', kind: 'user', status: 400, meaning: 'The check belongs to another repository than the one given' },
  CheckVersionNotProposed: { code: 'check_version.not_proposed', kind: 'user', status: 409, meaning: 'Only a proposed version (one a healing replay made) can be accepted; this one is compiled, accepted or superseded' },
  CheckNotCompiled: { code: 'check.not_compiled', kind: 'user', status: 409, meaning: 'A draft check cannot be scheduled; only a compiled one' },
  CheckEnvNameInvalid: { code: 'check.env_name_invalid', kind: 'user', status: 400, meaning: 'A test value names an environment variable that is not a variable name' },
  CheckStepTimeoutInvalid: { code: 'check.step_timeout_invalid', kind: 'user', status: 400, meaning: 'stepTimeoutMs is not a positive whole number' },
  CheckProbeUnknown: { code: 'check.probe_unknown', kind: 'user', status: 400, meaning: 'A step calls an evidence probe the repository does not configure' },
  CheckProbeRefUnknown: { code: 'check.probe_ref_unknown', kind: 'user', status: 400, meaning: 'An evidence probe ref is not a key of testValueSecretRefs' },
  CheckTestValueUnknown: { code: 'check.test_value_unknown', kind: 'user', status: 400, meaning: 'The check uses a test value the repository does not name' },
  CheckLocatorMissing: { code: 'check.locator_missing', kind: 'unexpected', status: 500, meaning: 'A compiled step that needs a resolved locator has none' },

  // Schedules.
  ScheduleQueueFailed: { code: 'schedule.queue_failed', kind: 'operational', status: 503, meaning: 'The schedule could not be saved on the queue; nothing was kept' },
  ScheduleNoNextRun: { code: 'schedule.no_next_run', kind: 'unexpected', meaning: 'The queue computed no next run for a stored interval' },

  // Repositories, their owners and organizations.
  RepositoryProbeRefUnknown: { code: 'repository.probe_ref_unknown', kind: 'user', status: 400, meaning: 'An evidence probe ref is not a key of testValueSecretRefs' },
  RepositoryProbeUrlUnset: { code: 'repository.probe_url_unset', kind: 'user', status: 400, meaning: "The probe URL's secret variable is not set on the server" },
  RepositoryProbeNotHttps: { code: 'repository.probe_not_https', kind: 'user', status: 400, meaning: 'The probe URL is not https' },
  RepositoryProbeHostNotAllowed: { code: 'repository.probe_host_not_allowed', kind: 'user', status: 400, meaning: "The probe URL's host is not in networkAllowlist" },
  OnboardingCrawlInvalid: { code: 'onboarding.crawl_invalid', kind: 'user', status: 400, meaning: "The discovery crawl's baseUrl is not an http(s) URL, or a limit is out of range; details.field names it" },
  RepositoryOnboardingStartFailed: { code: 'repository.onboarding_start_failed', kind: 'operational', status: 503, meaning: 'Onboarding could not be started; nothing was recorded' },
  OnboardingStepFailed: { code: 'onboarding.step_failed', kind: 'operational', meaning: 'An onboarding step failed for a reason it did not name; the ingestion run records it after its retries' },
  OnboardingOutputInvalid: { code: 'onboarding.output_invalid', kind: 'operational', meaning: "An onboarding step's result broke its contract (an empty, duplicate or too long flow key); nothing of it was stored" },
  IngestionNotSucceeded: { code: 'ingestion.not_succeeded', kind: 'user', meaning: 'CLI: a followed ingestion ended failed (details.code says why)' },
  IngestionInProgress: { code: 'ingestion.in_progress', kind: 'user', status: 409, meaning: 'The repository has an ingestion run not yet over (details.ingestionRunId); follow it, then start another' },
  RepositoryOwnerExcluded: { code: 'repository.owner_excluded', kind: 'user', status: 403, meaning: "The repository's owner is excluded (EXCLUDED_OWNERS, qa owners exclude)" },
  RepositoryInstallationNotConnected: { code: 'repository.installation_not_connected', kind: 'user', status: 403, meaning: 'The code-host installation is not connected to this organization' },
  RepositoryInstallationInactive: { code: 'repository.installation_inactive', kind: 'user', status: 403, meaning: 'The code host reported the installation suspended or deleted (details.status)' },
  // Onboarding's fetch of a revision (src/onboarding/fetch): each refusal or bound, coded, on the ingestion.
  RepositoryCloneUrlInvalid: { code: 'repository.clone_url_invalid', kind: 'user', status: 400, meaning: 'cloneUrl is not an https URL without credentials, query or fragment' },
  RepositoryRevisionInvalid: { code: 'repository.revision_invalid', kind: 'user', status: 400, meaning: 'The revision (or default branch) is neither a full commit SHA nor a branch or tag name' },
  RepositoryRevisionUnknown: { code: 'repository.revision_unknown', kind: 'user', status: 404, meaning: 'The repository has no such commit, branch or tag' },
  RepositoryAccessRefused: { code: 'repository.access_refused', kind: 'user', status: 403, meaning: "The code host refused the clone (HTTP 401/403): no token for a private repository, or the installation's token was refused" },
  RepositoryNotGit: { code: 'repository.not_git', kind: 'user', status: 400, meaning: 'Nothing at cloneUrl answers as a git repository (HTTP 404, an HTML page)' },
  RepositoryTooLarge: { code: 'repository.too_large', kind: 'user', status: 413, meaning: 'The revision is over the size bound, received or checked out (details.limitBytes, details.measured)' },
  RepositoryTooManyFiles: { code: 'repository.too_many_files', kind: 'user', status: 413, meaning: 'The revision has more files than the bound (details.limit, details.files)' },
  RepositoryFetchTimeout: { code: 'repository.fetch_timeout', kind: 'operational', status: 504, meaning: 'The fetch did not finish within its time bound (details.timeoutMs); git was stopped' },
  RepositoryTlsUntrusted: { code: 'repository.tls_untrusted', kind: 'operational', status: 502, meaning: "The code host's certificate is not trusted: a private CA goes in NODE_EXTRA_CA_CERTS" },
  RepositoryUnreachable: { code: 'repository.unreachable', kind: 'operational', status: 503, meaning: 'The code host could not be reached, or answered 5xx' },
  RepositoryFetchFailed: { code: 'repository.fetch_failed', kind: 'operational', status: 502, meaning: "git failed in another way; the message ends with git's last words" },
  OwnerInvalid: { code: 'owner.invalid', kind: 'user', status: 400, meaning: 'CLI: not a code-host owner name' },
  OrganizationNotFound: { code: 'organization.not_found', kind: 'user', status: 400, meaning: 'Administrator CLI: no organization with that slug' },
  OrganizationInvalidSlug: { code: 'organization.invalid_slug', kind: 'user', status: 400, meaning: 'Not an organization slug (lowercase letters, digits, inner hyphens)' },

  // The browser, what it leaves behind, and artifact storage.
  BrowserUnavailable: { code: 'browser.unavailable', kind: 'operational', status: 503, meaning: 'The worker could not start or reach its browser' },
  BrowserTargetNotUnique: { code: 'browser.target_not_unique', kind: 'operational', meaning: 'The element a step is recording no longer matches exactly one element (the page changed under it)' },
  AccessibilityAuditTimeout: { code: 'accessibility.audit_timeout', kind: 'operational', meaning: "A page's accessibility audit did not finish in time; the page is not checked" },
  AccessibilityAuditFailed: { code: 'accessibility.audit_failed', kind: 'operational', meaning: "A page's accessibility audit could not run; the page is not checked" },
  TraceUnavailable: { code: 'trace.unavailable', kind: 'unexpected', meaning: 'Playwright could not stop the trace' },
  TraceUnreadable: { code: 'trace.unreadable', kind: 'unexpected', meaning: 'The trace could not be opened to mask its secrets; it is not kept' },
  ZipInvalid: { code: 'zip.invalid', kind: 'user', status: 400, meaning: 'Not a zip this service reads' },
  ArtifactBadKey: { code: 'artifact.bad_key', kind: 'unexpected', meaning: 'A storage key that is not an artifact key' },
  ArtifactMissing: { code: 'artifact.missing', kind: 'operational', status: 410, meaning: 'The artifact is recorded but no longer stored' },

  // Evidence probes: the URL and token checks, then the call.
  ProbeInvalidUrl: { code: 'probe.invalid_url', kind: 'user', status: 400, meaning: 'The probe URL is not a valid absolute URL' },
  ProbeNotHttps: { code: 'probe.not_https', kind: 'user', status: 400, meaning: 'The probe URL does not use https' },
  ProbeCredentialsInUrl: { code: 'probe.credentials_in_url', kind: 'user', status: 400, meaning: 'The probe URL carries a user name or password' },
  ProbeHostNotAllowed: { code: 'probe.host_not_allowed', kind: 'user', status: 400, meaning: "The probe host is not in the job's allowlist" },
  ProbeInvalidToken: { code: 'probe.invalid_token', kind: 'user', status: 400, meaning: 'The probe token is empty or cannot be sent in a header' },
  ProbeInvalidAllowCidr: { code: 'probe.invalid_allow_cidr', kind: 'user', status: 400, meaning: 'PROBE_ALLOW_CIDRS is not a list of CIDR ranges' },
  ProbeAddressRefused: { code: 'probe.address_refused', kind: 'user', status: 400, meaning: 'The probe host resolves only to addresses probes may not reach' },
  ProbeDnsFailed: { code: 'probe.dns_failed', kind: 'operational', status: 503, meaning: 'The probe host does not resolve' },
  ProbeUnreachable: { code: 'probe.unreachable', kind: 'operational', status: 503, meaning: 'The probe could not be connected to, or broke off its answer' },
  ProbeAddressMismatch: { code: 'probe.address_mismatch', kind: 'operational', status: 503, meaning: 'The connection reached an address that was not checked' },
  ProbeBadStatus: { code: 'probe.bad_status', kind: 'operational', status: 503, meaning: 'The probe answered with a status other than 200' },
  ProbeInvalidBody: { code: 'probe.invalid_body', kind: 'operational', status: 503, meaning: "The probe's answer is not the small JSON object it must be" },
  ProbeResponseTooLarge: { code: 'probe.response_too_large', kind: 'operational', status: 503, meaning: "The probe's answer is over the size bound" },
  ProbeTimeout: { code: 'probe.timeout', kind: 'operational', status: 503, meaning: 'The probe did not answer in time' },
  ProbeCancelled: { code: 'probe.cancelled', kind: 'operational', status: 503, meaning: 'The probe call was cancelled before it finished' },

  // Progress notifications (src/notify): a channel that did not take a job's progress message.
  NotifyDeliveryRetryable: { code: 'notify.delivery_retryable', kind: 'operational', meaning: 'The channel failed for now (rate limit, 5xx, network); the delivery is retried with back-off' },
  NotifyDeliveryRefused: { code: 'notify.delivery_refused', kind: 'user', meaning: 'The channel refused the message for good (no such channel, bot not in it, token revoked); the delivery stops' },

  // The queue, the store and the configuration.
  QueueInvalidPayload: { code: 'queue.invalid_payload', kind: 'user', meaning: "A queued job's payload fails its schema (when enqueued or picked up)" },
  StoreUnreachable: { code: 'store.unreachable', kind: 'operational', status: 503, meaning: 'The database cannot be reached' },
  StoreInvalidDatabaseName: { code: 'store.invalid_database_name', kind: 'user', status: 400, meaning: 'The MySQL URL names a database this service will not create' },
  StoreCreateDatabaseFailed: { code: 'store.create_database_failed', kind: 'operational', status: 503, meaning: 'The database could not be created' },
  StoreMigrationLockTimeout: { code: 'store.migration_lock_timeout', kind: 'operational', status: 503, meaning: 'Another process held the migration lock too long' },
  ConfigInvalid: { code: 'config.invalid', kind: 'user', meaning: 'An environment variable is missing or wrong; the process stops with exit code 2' },

  // The chat receiver (Slack's signed requests) and the bot's own failures.
  ChatSignatureMissing: { code: 'chat.signature_missing', kind: 'user', status: 401, meaning: 'A chat request without X-Slack-Signature or X-Slack-Request-Timestamp' },
  ChatSignatureInvalid: { code: 'chat.signature_invalid', kind: 'user', status: 401, meaning: "The chat request's signature does not match its body under the signing secret" },
  ChatTokenKeyMissing: { code: 'chat.token_key_missing', kind: 'operational', status: 503, meaning: 'CHAT_TOKEN_KEY is not set, so an installation token cannot be stored or read' },
  ChatTokenUnreadable: { code: 'chat.token_unreadable', kind: 'operational', status: 503, meaning: 'A stored bot token does not decrypt with CHAT_TOKEN_KEY (another key, or tampered)' },
  ChatWorkspaceNotFound: { code: 'chat.workspace_not_found', kind: 'user', status: 404, meaning: 'Administrator CLI: no chat workspace with that team id' },
  ChatInvalidTeamId: { code: 'chat.invalid_team_id', kind: 'user', status: 400, meaning: 'Not a Slack team id (T followed by letters and digits)' },
  ChatInvalidBaseUrl: { code: 'chat.invalid_base_url', kind: 'user', status: 400, meaning: 'A channel binding address that is not an http(s) URL' },
  ChatInstallationUnsupported: { code: 'chat.installation_unsupported', kind: 'user', status: 400, meaning: 'A Slack installation that is not a workspace installation with a bot user (an org-wide or user-only install)' },
  ChatBotTokenMissing: { code: 'chat.bot_token_missing', kind: 'operational', meaning: 'A job asked from a workspace with no stored bot token and no default SLACK_BOT_TOKEN, so its thread cannot be opened' },
  ChatDeliveryGone: { code: 'chat.delivery_gone', kind: 'operational', meaning: "A chat delivery's receipt was purged before its opening message could be recorded" },
  ChatRequestStale: { code: 'chat.request_stale', kind: 'user', status: 401, meaning: "The chat request's timestamp is more than 5 minutes from the server's clock" },

  // Signed webhooks (the code host, the identity provider) and their durable receipts.
  WebhookSignatureMissing: { code: 'webhook.signature_missing', kind: 'user', status: 401, meaning: 'A webhook delivery without its signature header (x-codehost-signature-256)' },
  WebhookSignatureInvalid: { code: 'webhook.signature_invalid', kind: 'user', status: 401, meaning: "The delivery's signature matches its body under none of the webhook secrets" },
  WebhookHeaderMissing: { code: 'webhook.header_missing', kind: 'user', status: 400, meaning: 'A required delivery header is missing (x-codehost-event, x-codehost-delivery); details.header names it' },
  WebhookHeaderInvalid: { code: 'webhook.header_invalid', kind: 'user', status: 400, meaning: 'A delivery header is not an event name or a delivery id; details.header names it' },
  WebhookDeliveryConflict: { code: 'webhook.delivery_conflict', kind: 'user', status: 409, meaning: 'A delivery id already received with another body; the first is kept' },
  WebhookReceiptNotFound: { code: 'webhook.receipt_not_found', kind: 'user', status: 404, meaning: 'Administrator CLI: no webhook receipt with that id or delivery id' },
  WebhookReceiptNotFailed: { code: 'webhook.receipt_not_failed', kind: 'user', status: 409, meaning: 'Administrator CLI: only a failed or dead receipt can be redelivered' },
  WebhookSignatureStale: { code: 'webhook.signature_stale', kind: 'user', status: 401, meaning: "The delivery's signature timestamp (x-identity-signature t=) is more than 5 minutes from the server's clock" },
  WebhookBodyInvalid: { code: 'webhook.body_invalid', kind: 'user', status: 400, meaning: 'A signed identity delivery whose body is not {id, event, data, created_at}; details.field names the first wrong field' },
  WebhookPayloadInvalid: { code: 'webhook.payload_invalid', kind: 'user', meaning: 'A signed delivery whose payload is not the shape its event has (the receipt fails, then is dead for an operator)' },
  CodehostUnauthorized: { code: 'codehost.unauthorized', kind: 'operational', meaning: 'The code host refused the app JWT or installation token (401/403): check CODEHOST_APP_ID and CODEHOST_PRIVATE_KEY' },
  CodehostRateLimited: { code: 'codehost.rate_limited', kind: 'operational', meaning: 'The code host answered 429 (or a rate-limit 403); details.retryAfterSeconds says when to try again' },
  CodehostUnavailable: { code: 'codehost.unavailable', kind: 'operational', meaning: 'The code host answered 5xx or could not be reached; retried with back-off from the queue' },
  CodehostRequestFailed: { code: 'codehost.request_failed', kind: 'operational', meaning: 'The code host refused a request (another 4xx); details.status is its answer' },
  CodehostNotConfigured: { code: 'codehost.not_configured', kind: 'user', meaning: 'A code-host API call needs CODEHOST_APP_ID and CODEHOST_PRIVATE_KEY' },

  // `/qa` comments on pull requests (src/webhooks/codehost/issue-comment-handler.ts): shown in the bot's reply on the pull request.
  PrCommentNotAllowed: { code: 'pr_comment.not_allowed', kind: 'user', status: 403, meaning: "The commenter is neither the pull request's author nor a collaborator with write, maintain or admin permission" },
  PrCommentInvalid: { code: 'pr_comment.invalid', kind: 'user', status: 400, meaning: 'A `/qa` command whose argument is missing or out of bounds (a task over 4,000 characters, an empty replay)' },
  PrCommentAwaitingDeployment: { code: 'pr_comment.awaiting_deployment', kind: 'user', status: 409, meaning: "The repository runs pull requests against their preview deployment, and the head commit has none that succeeded yet" },
  PrCommentNothingToAnswer: { code: 'pr_comment.nothing_to_answer', kind: 'user', status: 409, meaning: "`/qa answer` on a pull request none of whose jobs is waiting for answers" },
  PrCommentAnswerInvalid: { code: 'pr_comment.answer_invalid', kind: 'user', status: 400, meaning: '`/qa answer` with a number no question has, a question answered twice, or an empty answer (a wrong count is clarification.answer_count)' },
  PrCommentCheckUnknown: { code: 'pr_comment.check_unknown', kind: 'user', status: 404, meaning: "`/qa replay` names no check of the pull request's repository (another organization's id included)" },
  PrCommentCheckAmbiguous: { code: 'pr_comment.check_ambiguous', kind: 'user', status: 409, meaning: "`/qa replay` words match more than one of the repository's checks; the reply lists them by id" },
  PrCommentCheckNotReplayable: { code: 'pr_comment.check_not_replayable', kind: 'user', status: 409, meaning: '`/qa replay` names a check that has not passed yet (a draft), so it has no compiled steps' },
  PrCommentPullRequestClosed: { code: 'pr_comment.pull_request_closed', kind: 'user', status: 409, meaning: 'A `/qa` command that would start a run (a task, a replay, a rerun, an answer) on a pull request that is closed or merged' },
  PrCommentNothingToRerun: { code: 'pr_comment.nothing_to_rerun', kind: 'user', status: 409, meaning: '`/qa rerun` on a pull request that has no job yet' },

  // The CLI and its client of the API.
  CliUsage: { code: 'cli.usage', kind: 'user', status: 400, meaning: 'The command line combines options wrongly' },
  CliApiKeyMissing: { code: 'cli.api_key_missing', kind: 'user', status: 400, meaning: 'QA_API_KEY is not set for a command that calls the API' },
  CliFileUnreadable: { code: 'cli.file_unreadable', kind: 'user', status: 400, meaning: 'The file given cannot be read' },
  CliFileNotJson: { code: 'cli.file_not_json', kind: 'user', status: 400, meaning: 'The file given is not valid JSON' },
  CliFileNotObject: { code: 'cli.file_not_object', kind: 'user', status: 400, meaning: 'The file given does not hold one JSON object' },
  FlagsUnknownCapability: { code: 'flags.unknown_capability', kind: 'user', status: 400, meaning: 'Not a capability an operator can pause (live, ai)' },
  ApiUnreachable: { code: 'api.unreachable', kind: 'operational', status: 503, meaning: 'The CLI could not reach the API, or it stopped answering' },
  ApiBadResponse: { code: 'api.bad_response', meaning: 'The API answered with something this client does not understand' },
  ApiStreamInterrupted: { code: 'api.stream_interrupted', kind: 'operational', status: 503, meaning: 'An event stream from the API was cut off' },
  FollowLost: { code: 'follow.lost', kind: 'operational', status: 503, meaning: "The CLI lost a job's events after its reconnections" },
} as const satisfies Record<string, ErrorCodeEntry>;

type Catalogue = typeof ERROR_CATALOGUE;

/** Every code in the catalogue. */
export type ErrorCode = Catalogue[keyof Catalogue]['code'];

/** The codes by name, for call sites: `userError(ErrorCode.CliUsage, …)`, `error.code === ErrorCode.ExecutionPaused`. */
export const ErrorCode = Object.fromEntries(Object.entries(ERROR_CATALOGUE).map(([name, entry]) => [name, entry.code])) as {
  readonly [Name in keyof Catalogue]: Catalogue[Name]['code'];
};

const KNOWN = new Set<string>(Object.values(ErrorCode));

/** Whether a string from outside (an API answer the CLI reads) is a code of this catalogue. */
export function isErrorCode(value: string): value is ErrorCode {
  return KNOWN.has(value);
}

/** `<what>.not_found`; the type proves every resource's code is in the catalogue. */
export function notFoundCode(what: NotFoundResource): ErrorCode {
  return `${what}.not_found`;
}
