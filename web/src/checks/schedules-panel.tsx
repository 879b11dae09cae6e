/**
 * A check's schedules: when it replays (cron or interval, in a time zone) and on which base URL; create one, pause
 * or resume it, delete it after asking.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { scheduleSchema } from '../../../src/api/schemas/schedules.js';
import { api } from '../api/client.js';
import { errorFor, fieldErrorsOf } from '../api/field-errors.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatTime } from '../format.js';
import { SCHEDULES_KEY, schedulesQuery } from './queries.js';

/** A schedule read with set A's names (validated by the shared schema, whose type keys fields by naming set). */
interface Schedule {
  scheduleId: string;
  testId?: string;
  cron?: string;
  intervalMinutes?: number;
  timezone: string;
  baseUrl: string;
  networkAllowlist: string[];
  enabled: boolean;
  nextRunAt: string | null;
  createdAt: string;
}
const timing = (schedule: Schedule) => (schedule.cron !== undefined ? `cron ${schedule.cron}` : `every ${schedule.intervalMinutes} min`);
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function ScheduleRow({ schedule }: { schedule: Schedule }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api(scheduleSchema, `/api/schedules/${encodeURIComponent(schedule.scheduleId)}`, { method: 'PATCH', body: { enabled } }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api(z.unknown(), `/api/schedules/${encodeURIComponent(schedule.scheduleId)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const what = `${timing(schedule)} (${schedule.timezone})`;
  return (
    <li className="card schedule" data-testid="schedule">
      <p>
        <strong>{timing(schedule)}</strong> <span className="muted">{schedule.timezone}</span>{' '}
        <span className={`status ${schedule.enabled ? 'running' : 'cancelled'}`}>{schedule.enabled ? 'active' : 'paused'}</span>
      </p>
      <p className="muted">
        on <span className="break">{schedule.baseUrl}</span>
        {schedule.enabled && schedule.nextRunAt ? `, next ${formatTime(schedule.nextRunAt)}` : ''}
      </p>
      {toggle.isError ? <ErrorNotice error={toggle.error} /> : null}
      {remove.isError ? <ErrorNotice error={remove.error} /> : null}
      <div className="actions">
        <button type="button" disabled={toggle.isPending} onClick={() => toggle.mutate(!schedule.enabled)} aria-label={`${schedule.enabled ? 'Pause' : 'Resume'} schedule ${what}`}>
          {schedule.enabled ? 'Pause' : 'Resume'}
        </button>
        <ConfirmButton label="Delete" ariaLabel={`Delete schedule ${what}`} question={`Delete the schedule ${what}?`} confirmLabel="Yes, delete" busy={remove.isPending} onConfirm={() => remove.mutate()} />
      </div>
    </li>
  );
}

function CreateSchedule({ checkId, defaultBaseUrl }: { checkId: string; defaultBaseUrl: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [mode, setMode] = useState<'interval' | 'cron'>('interval');
  const [cron, setCron] = useState('0 6 * * *');
  const [interval, setInterval] = useState('60');
  const [timezone, setTimezone] = useState(browserTimeZone);
  // The repository's base URL until the person types another (it may load after the form).
  const [typedBaseUrl, setBaseUrl] = useState<string | undefined>(undefined);
  const baseUrl = typedBaseUrl ?? defaultBaseUrl;
  const create = useMutation({
    mutationFn: () =>
      api(scheduleSchema, '/api/schedules', {
        method: 'POST',
        body: { testId: checkId, ...(mode === 'cron' ? { cron } : { intervalMinutes: Number(interval) }), timezone, baseUrl },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY }),
  });
  const errors = fieldErrorsOf(create.error);
  const fieldError = (field: string) => {
    const message = errorFor(errors, field);
    return message ? (
      <p className="field-error" id={`${id}-${field}-error`}>
        {message}
      </p>
    ) : null;
  };
  const described = (field: string) => (errorFor(errors, field) ? `${id}-${field}-error` : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} className="schedule-form" aria-label="New schedule">
      <fieldset>
        <legend>When</legend>
        <label className="inline">
          <input type="radio" name={`${id}-mode`} checked={mode === 'interval'} onChange={() => setMode('interval')} /> Every few minutes
        </label>{' '}
        <label className="inline">
          <input type="radio" name={`${id}-mode`} checked={mode === 'cron'} onChange={() => setMode('cron')} /> Cron expression
        </label>
        {mode === 'interval' ? (
          <>
            <label htmlFor={`${id}-interval`}>Interval in minutes</label>
            <input id={`${id}-interval`} type="number" min={5} max={10080} required value={interval} onChange={(event) => setInterval(event.target.value)} aria-describedby={described('intervalMinutes')} />
            {fieldError('intervalMinutes')}
          </>
        ) : (
          <>
            <label htmlFor={`${id}-cron`}>Cron expression</label>
            <input id={`${id}-cron`} required value={cron} onChange={(event) => setCron(event.target.value)} aria-describedby={`${id}-cron-help ${described('cron') ?? ''}`.trim()} />
            <p className="field-help" id={`${id}-cron-help`}>
              Five fields: minute hour day-of-month month day-of-week.
            </p>
            {fieldError('cron')}
          </>
        )}
      </fieldset>
      <label htmlFor={`${id}-timezone`}>Time zone</label>
      <input id={`${id}-timezone`} required value={timezone} onChange={(event) => setTimezone(event.target.value)} aria-describedby={described('timezone')} />
      {fieldError('timezone')}
      <label htmlFor={`${id}-base-url`}>Base URL</label>
      <input id={`${id}-base-url`} type="url" className="wide" required value={baseUrl} onChange={(event) => setBaseUrl(event.target.value)} aria-describedby={described('baseUrl')} />
      {fieldError('baseUrl')}
      {create.isError && Object.keys(errors).length === 0 ? <ErrorNotice error={create.error} /> : null}
      {create.isSuccess ? <p role="status">Schedule created.</p> : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          Create schedule
        </button>
      </div>
    </form>
  );
}

export function SchedulesPanel({ checkId, defaultBaseUrl }: { checkId: string; defaultBaseUrl: string }) {
  const schedules = useQuery(schedulesQuery);
  const mine = ((schedules.data?.schedules ?? []) as unknown as Schedule[]).filter((schedule) => schedule.testId === checkId);
  return (
    <>
      {schedules.isPending ? <p className="muted">Loading schedules…</p> : null}
      {schedules.isError ? <ErrorNotice error={schedules.error} retry={() => void schedules.refetch()} /> : null}
      {schedules.isSuccess && mine.length === 0 ? <p className="muted">No schedule replays this check.</p> : null}
      {mine.length > 0 ? (
        <ul className="cards plain">
          {mine.map((schedule) => (
            <ScheduleRow key={schedule.scheduleId} schedule={schedule} />
          ))}
        </ul>
      ) : null}
      <details className="create">
        <summary>New schedule</summary>
        <CreateSchedule checkId={checkId} defaultBaseUrl={defaultBaseUrl} />
      </details>
    </>
  );
}
