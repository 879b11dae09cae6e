import { z } from 'zod';

/**
 * The keys the bot needs in what Slack sends, by kind: an Events API delivery is filed under its `event_id` and
 * team, a slash command and a button click under their team and `trigger_id`. Bolt routes a body that has none of
 * them nowhere (it holds the request 3 s, then answers a bare 404) or hands the listeners an envelope without its
 * key; both are refused before Bolt sees them. Kinds the bot does not handle pass (Bolt acks and ignores them).
 */
const id = z.string().min(1).max(255);
const eventCallback = z.looseObject({ event_id: id, team_id: id, event: z.looseObject({ type: id }) });
const slashCommand = z.looseObject({ command: id, team_id: id, trigger_id: id });
const blockActions = z
  .looseObject({ trigger_id: id, team: z.looseObject({ id }).nullish(), user: z.looseObject({ id, team_id: id.optional() }) })
  .refine((body) => body.team?.id !== undefined || body.user.team_id !== undefined, { message: '`team.id` or `user.team_id` is required' });

/** What is missing from a parsed request body (a JSON object) for the bot to use it, or null when nothing is. */
export function envelopeProblem(body: Record<string, unknown>): string | null {
  if ('ssl_check' in body) return null;
  const schema =
    body.type === 'event_callback' ? eventCallback : typeof body.command === 'string' ? slashCommand : body.type === 'block_actions' ? blockActions : null;
  if (schema === null) return typeof body.type === 'string' && body.type !== '' ? null : 'it has neither a `type` nor a `command`';
  const parsed = schema.safeParse(body);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'custom') return issue.message;
  return `\`${issue.path.join('.') || '(body)'}\` ${issue.code === 'invalid_type' ? 'is missing or of the wrong type' : issue.message}`;
}
