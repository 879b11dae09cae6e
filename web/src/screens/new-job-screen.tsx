/**
 * New job (`/jobs/new`): a task in plain words or a check to replay (`?testId=` picks one), the repository (its base
 * URL and allowlist filled in from it), base URL, allowlist and an optional commit. Sends `POST /api/jobs` with
 * trigger `web`; a runnable job opens its page, a `review_required` one shows its questions here at once, and
 * answering them opens the child job.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { useCheck, useChecks, type CheckItem } from '../api/checks.js';
import { api } from '../api/client.js';
import { createdJobOf, type Resolution } from '../api/created-job.js';
import { fieldErrorsOf } from '../api/field-errors.js';
import { repositoryName, useRepositories } from '../api/repositories.js';
import { ClarificationForm, ReviewNotes } from '../components/clarification-form.js';
import { ErrorNotice, isNotFound } from '../components/error-notice.js';
import { createJobBody, formFieldOf, missingFields, repositoryDefaults, type FormField, type NewJobValues } from '../jobs/new-job-form.js';
import { JOB_LISTS_KEY } from '../jobs/keys.js';

type Errors = Partial<Record<FormField, string>>;

function Field({ id, label, error, help, children }: { id: string; label: string; error?: string; help?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {help ? (
        <p id={`${id}-help`} className="field-help">
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** aria attributes tying a control to its help and error text. */
function described(id: string, error: string | undefined, help: boolean) {
  const ids = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

const checkLabel = (check: CheckItem) => {
  const task = check.naturalLanguageTask.length > 80 ? `${check.naturalLanguageTask.slice(0, 79)}…` : check.naturalLanguageTask;
  return `${task} (v${check.version}${check.status === 'draft' ? ', draft' : ''})`;
};

function ReviewPanel({ jobId, resolution, onAnswered }: { jobId: string; resolution: Resolution; onAnswered: (childId: string) => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="review-panel notice" aria-labelledby="review-heading" data-testid="review-required">
      <h2 id="review-heading" ref={heading} tabIndex={-1}>
        This task needs answers first
      </h2>
      <p>
        Job <Link href={`/jobs/${encodeURIComponent(jobId)}`}>{jobId}</Link> is waiting for answers to {resolution.questions.length === 1 ? 'one question' : `${resolution.questions.length} questions`}. Answering
        starts a new job with the task and your answers.
      </p>
      <ReviewNotes ambiguities={resolution.ambiguities} assumptions={resolution.assumptions} />
      <h3>Questions</h3>
      <ClarificationForm jobId={jobId} questions={resolution.questions} onAnswered={onAnswered} />
    </section>
  );
}

export default function NewJobScreen() {
  const id = useId();
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const preselected = useMemo(() => new URLSearchParams(search).get('testId') ?? undefined, [search]);
  const repositories = useRepositories();
  const checks = useChecks();
  const listed = checks.data?.some((check) => check.testId === preselected) ?? true;
  const extraCheck = useCheck(preselected !== undefined && checks.isSuccess && !listed ? preselected : undefined);
  const allChecks = useMemo(() => [...(checks.data ?? []), ...(extraCheck.data ? [extraCheck.data] : [])], [checks.data, extraCheck.data]);

  const [values, setValues] = useState<NewJobValues>({
    kind: preselected ? 'check' : 'task',
    task: '',
    testId: preselected ?? '',
    projectId: '',
    baseUrl: '',
    allowlist: '',
    commitSha: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [review, setReview] = useState<{ jobId: string; resolution: Resolution } | null>(null);

  const chooseRepository = (projectId: string) => {
    const repository = repositories.data?.find((item) => item.repositoryId === projectId);
    setValues((current) => ({ ...current, projectId, ...(repository ? repositoryDefaults(repository) : {}) }));
  };

  // The only repository, or the preselected check's, is chosen once they are known.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || !repositories.data) return;
    const check = preselected ? allChecks.find((item) => item.testId === preselected) : undefined;
    if (preselected && !check && (checks.isPending || extraCheck.isFetching)) return;
    prefilled.current = true;
    const projectId = check?.projectId ?? (repositories.data.length === 1 ? repositories.data[0]!.repositoryId : undefined);
    if (projectId) chooseRepository(projectId);
    // Once, when the repositories (and a preselected check) are known; later changes are the person's.
  }, [repositories.data, allChecks, preselected, checks.isPending, extraCheck.isFetching]);

  const set = (patch: Partial<NewJobValues>) => setValues((current) => ({ ...current, ...patch }));
  const shownChecks = allChecks.filter((check) => !values.projectId || check.projectId === values.projectId || check.testId === values.testId);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = missingFields(values);
    setErrors(missing);
    setError(null);
    if (Object.keys(missing).length > 0) {
      document.getElementById(`${id}-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = createdJobOf(await api(jobSchemas.A.created, '/api/jobs', { method: 'POST', body: createJobBody(values) }));
      void queryClient.invalidateQueries({ queryKey: JOB_LISTS_KEY });
      if (answer.kind === 'runnable') navigate(`/jobs/${encodeURIComponent(answer.jobId)}`);
      else setReview({ jobId: answer.jobId, resolution: answer.resolution });
    } catch (caught) {
      const visible = (field: FormField) => field !== (values.kind === 'task' ? 'testId' : 'task');
      const byField: Errors = {};
      let unplaced = false;
      for (const [apiField, message] of Object.entries(fieldErrorsOf(caught))) {
        const field = formFieldOf(apiField);
        if (field && visible(field)) byField[field] ??= message;
        else unplaced = true;
      }
      setErrors(byField);
      if (unplaced || Object.keys(byField).length === 0) setError(caught);
      const first = Object.keys(byField)[0];
      if (first) document.getElementById(`${id}-${first}`)?.focus();
    } finally {
      setBusy(false);
    }
  }

  if (review) {
    return (
      <>
        <h1>New job</h1>
        <ReviewPanel jobId={review.jobId} resolution={review.resolution} onAnswered={(childId) => navigate(`/jobs/${encodeURIComponent(childId)}`)} />
      </>
    );
  }

  if (repositories.isError) return <ErrorNotice error={repositories.error} retry={() => void repositories.refetch()} />;
  if (repositories.isPending) return <p className="muted">Loading repositories…</p>;
  if (repositories.data.length === 0) {
    return (
      <>
        <h1>New job</h1>
        <p className="empty">
          A job runs against a connected repository, and there is none yet. <Link href="/repositories">Connect a repository</Link> first.
        </p>
      </>
    );
  }

  const fieldId = (field: FormField) => `${id}-${field}`;
  return (
    <>
      <h1>New job</h1>
      <form className="new-job" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className="kind">
          <legend>What to run</legend>
          <label className="inline">
            <input type="radio" name={`${id}-kind`} value="task" checked={values.kind === 'task'} onChange={() => set({ kind: 'task' })} />A task in plain words
          </label>
          <label className="inline">
            <input type="radio" name={`${id}-kind`} value="check" checked={values.kind === 'check'} onChange={() => set({ kind: 'check' })} />A check to replay
          </label>
        </fieldset>

        {values.kind === 'task' ? (
          <Field id={fieldId('task')} label="Task" error={errors.task} help="What a tester should do and what should happen, e.g. “Sign in as the demo user and check the cart shows 2 items”.">
            <textarea id={fieldId('task')} value={values.task} maxLength={4000} rows={4} onChange={(event) => set({ task: event.target.value })} {...described(fieldId('task'), errors.task, true)} />
          </Field>
        ) : (
          <Field id={fieldId('testId')} label="Check" error={errors.testId}>
            {checks.isError ? <ErrorNotice error={checks.error} retry={() => void checks.refetch()} /> : null}
            {extraCheck.isError ? (
              <p className="field-error">{isNotFound(extraCheck.error) ? 'The check this link names is not one of your organization’s; choose another.' : extraCheck.error.message}</p>
            ) : null}
            <select
              id={fieldId('testId')}
              value={shownChecks.some((check) => check.testId === values.testId) ? values.testId : ''}
              onChange={(event) => {
                const check = allChecks.find((item) => item.testId === event.target.value);
                set({ testId: event.target.value });
                if (check && check.projectId !== values.projectId) chooseRepository(check.projectId);
              }}
              {...described(fieldId('testId'), errors.testId, false)}
            >
              <option value="">{checks.isPending ? 'Loading checks…' : shownChecks.length === 0 ? 'No checks for this repository yet' : 'Choose a check'}</option>
              {shownChecks.map((check) => (
                <option key={check.testId} value={check.testId}>
                  {checkLabel(check)}
                </option>
              ))}
            </select>
          </Field>
        )}

        <Field id={fieldId('projectId')} label="Repository" error={errors.projectId}>
          <select id={fieldId('projectId')} value={values.projectId} onChange={(event) => chooseRepository(event.target.value)} {...described(fieldId('projectId'), errors.projectId, false)}>
            <option value="">Choose a repository</option>
            {repositories.data.map((repository) => (
              <option key={repository.repositoryId} value={repository.repositoryId}>
                {repositoryName(repository)}
              </option>
            ))}
          </select>
        </Field>

        <Field id={fieldId('baseUrl')} label="Base URL" error={errors.baseUrl} help="Where the job starts; filled in from the repository.">
          <input id={fieldId('baseUrl')} type="url" inputMode="url" value={values.baseUrl} onChange={(event) => set({ baseUrl: event.target.value })} {...described(fieldId('baseUrl'), errors.baseUrl, true)} />
        </Field>

        <Field id={fieldId('allowlist')} label="Network allowlist" error={errors.allowlist} help="Hosts the browser may reach besides the base URL's: one a line or separated by commas (host, host:port).">
          <textarea id={fieldId('allowlist')} rows={3} value={values.allowlist} onChange={(event) => set({ allowlist: event.target.value })} {...described(fieldId('allowlist'), errors.allowlist, true)} />
        </Field>

        <Field id={fieldId('commitSha')} label="Commit SHA (optional)" error={errors.commitSha}>
          <input
            id={fieldId('commitSha')}
            value={values.commitSha}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => set({ commitSha: event.target.value })}
            {...described(fieldId('commitSha'), errors.commitSha, false)}
          />
        </Field>

        {error ? <ErrorNotice error={error} /> : null}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Starting…' : 'Start job'}
          </button>
          <Link href="/jobs">Cancel</Link>
        </div>
      </form>
    </>
  );
}
