/**
 * What a person asks the service in a conversation, whatever the channel (a chat thread, a pull-request comment, and
 * later the dashboard and the MCP server). Each channel reads its own text into these (bot/conversation/commands.ts,
 * src/core/pr-comment-command.ts) and may offer a subset; src/jobs/conversation/ does them. Pure: no I/O.
 */
export type ConversationCommand =
  | { kind: 'help' }
  /** The checks of the conversation's repository (the organization's when it has none). */
  | { kind: 'checks' }
  | { kind: 'status'; jobId: string }
  | { kind: 'cancel'; jobId: string }
  /** A natural-language job; `baseUrl` names the address to run against instead of the conversation's own. */
  | { kind: 'task'; task: string; baseUrl?: string | null }
  /** A compiled check, named by its id or words of its task (src/core/check-reference.ts). */
  | { kind: 'replay'; check: string }
  /** What the conversation's latest job ran, again. */
  | { kind: 'rerun' }
  /** Answers to the questions of the job waiting for them, as the lines a person wrote (src/core/clarification-answers.ts). */
  | { kind: 'answer'; lines: string[] }
  /** "Not a bug": disputes the failing findings of the conversation's latest failed job. */
  | { kind: 'dispute'; reason: string }
  /** Words understood as a command whose argument is missing or malformed: answered with `message`. */
  | { kind: 'invalid'; message: string };
