/**
 * Execution (admins): pause and resume live execution (browsers on real sites) and AI execution (model calls) for
 * this organization. A pause the operator set for everyone shows too: resuming here does not lift it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { executionFlagsSchema } from '../../../src/api/schemas/people.js';
import { api } from '../api/client.js';
import { ErrorNotice } from '../components/error-notice.js';

const FLAGS_KEY = ['execution-flags'] as const;
type Flag = z.output<typeof executionFlagsSchema>['flags'][number];

const ABOUT: Record<Flag['capability'], { title: string; noun: string; text: string }> = {
  live: { title: 'Live execution', noun: 'live execution', text: 'Browsers opening your sites: new jobs, replays, schedules and onboarding.' },
  ai: { title: 'AI execution', noun: 'AI execution', text: 'Model calls: planning plain-language tasks, healing and onboarding.' },
};

function FlagCard({ flag }: { flag: Flag }) {
  const queryClient = useQueryClient();
  const set = useMutation({
    mutationFn: (paused: boolean) => api(executionFlagsSchema, `/api/execution-flags/${flag.capability}`, { method: 'PUT', body: { paused } }),
    onSuccess: (answer) => queryClient.setQueryData(FLAGS_KEY, answer),
  });
  const about = ABOUT[flag.capability];
  const headingId = `flag-${flag.capability}`;
  return (
    <section className="card" aria-labelledby={headingId} data-testid={`flag-${flag.capability}`}>
      <h2 id={headingId}>{about.title}</h2>
      <p className="muted">{about.text}</p>
      <p>
        <span className={`status ${flag.paused ? 'cancelled' : 'passed'}`} data-testid="flag-state">
          {flag.paused ? 'paused' : 'running'}
        </span>{' '}
        {flag.paused ? 'for this organization' : ''}
      </p>
      {flag.pausedForEveryone ? (
        <p className="notice" data-testid="paused-for-everyone">
          The operator has paused this for everyone. Nothing runs until they resume it, whatever is set here.
        </p>
      ) : null}
      {set.isError ? <ErrorNotice error={set.error} /> : null}
      <button type="button" className={flag.paused ? 'primary' : 'danger'} disabled={set.isPending} onClick={() => set.mutate(!flag.paused)}>
        {flag.paused ? `Resume ${about.noun}` : `Pause ${about.noun}`}
      </button>
    </section>
  );
}

export default function ExecutionScreen() {
  const flags = useQuery({ queryKey: FLAGS_KEY, queryFn: ({ signal }) => api(executionFlagsSchema, '/api/execution-flags', { signal }) });
  return (
    <>
      <h1>Execution</h1>
      <p className="muted">While a capability is paused, the service refuses the work in this organization that needs it.</p>
      {flags.isPending ? <p className="muted">Loading…</p> : null}
      {flags.isError ? <ErrorNotice error={flags.error} retry={() => void flags.refetch()} /> : null}
      {flags.data ? (
        <div className="cards">
          {flags.data.flags.map((flag) => (
            <FlagCard key={flag.capability} flag={flag} />
          ))}
        </div>
      ) : null}
    </>
  );
}
