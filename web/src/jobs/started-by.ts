/**
 * Who started a job, as a list cell reads it: the service's actor names (`user:<id>`, `api_key:<id>`,
 * `schedule:<id>`, `slack:<team>:<user>`, `codehost:<installation>[:<login>]`, src/core/principal.ts) made short.
 */
import type { JobSummary } from '../api/job-summary.js';

const short = (id: string) => (id.length > 8 ? id.slice(0, 8) : id);

/** '' when not recorded (jobs from before it was). */
export function startedByText(startedBy: JobSummary['startedBy'], me: { id: string; name: string | null }): string {
  if (!startedBy) return '';
  const [kind, ...rest] = startedBy.actor.split(':');
  const id = rest.join(':');
  if (startedBy.kind === 'person') return id === me.id ? `you${me.name ? ` (${me.name})` : ''}` : id;
  switch (kind) {
    case 'api_key':
      return `API key ${short(id)}`;
    case 'schedule':
      return `schedule ${short(id)}`;
    case 'slack':
      return `Slack ${rest.at(-1) ?? ''}`.trim();
    case 'codehost':
      return rest.length > 1 ? `${rest.slice(1).join(':')} (code host)` : `code host ${id}`;
    default:
      return startedBy.actor;
  }
}
