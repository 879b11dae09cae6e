import { z } from 'zod';

/**
 * The parts of Slack's payloads the conversation reads, checked with zod as every other edge checks its input
 * (https://api.slack.com/apis/events-api#callback-field, https://api.slack.com/interactivity/slash-commands,
 * https://api.slack.com/reference/interaction-payloads/block-actions). Only what is read is checked, so a field Slack
 * adds or drops elsewhere changes nothing; an optional field of another type is read as absent, as before.
 */
const optionalText = z.string().optional().catch(undefined);

/** `event_callback` of `app_mention` and `message` (a thread reply). */
export const messageEnvelope = z.object({
  event: z.object({
    channel: z.string(),
    user: z.string(),
    ts: z.string(),
    thread_ts: optionalText,
    text: optionalText,
    /** The person's own workspace (Slack Connect), else `team`. */
    user_team: optionalText,
    team: optionalText,
  }),
});

/** A slash command's form fields. */
export const slashCommand = z.object({
  channel_id: z.string(),
  user_id: z.string(),
  team_id: optionalText,
  text: optionalText,
});

/** A `block_actions` press of a Yes / No button. */
export const buttonPress = z.object({
  channel: z.object({ id: optionalText }).optional().catch(undefined),
  container: z.object({ channel_id: optionalText, thread_ts: optionalText, message_ts: optionalText }).optional().catch(undefined),
  message: z.object({ thread_ts: optionalText }).optional().catch(undefined),
  user: z.object({ id: z.string(), team_id: optionalText }),
  actions: z
    .array(z.object({ action_id: optionalText, value: optionalText }))
    .optional()
    .catch(undefined),
});

/** Who the bot is in the workspace the delivery came from (Events API `authorizations`). */
export const authorizations = z.object({
  authorizations: z.array(z.object({ user_id: optionalText })).optional().catch(undefined),
});
