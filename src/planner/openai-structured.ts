import type { z } from 'zod';

/**
 * What every question to the model shares: a chat-completions request whose answer must follow a strict JSON schema
 * (with, on the second attempt, what was wrong with the first), and the first gates of reading it: JSON at all, and
 * the first way it misses a schema, said briefly enough to send back.
 * Planning a task (openai-prompt.ts), resolving a step on the page (openai-page-prompt.ts) and naming flows
 * (openai-flow-names.ts) each add their own messages, schema and checks.
 */
export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** The request body for one attempt; `retryHint` says what was wrong with the previous answer. */
export function structuredRequest(
  model: string,
  messages: readonly ChatMessage[],
  schema: { name: string; schema: Record<string, unknown> },
  retryHint?: string,
): Record<string, unknown> {
  const retry: ChatMessage[] =
    retryHint === undefined
      ? []
      : [{ role: 'user', content: `Your previous answer could not be used: ${retryHint}. Answer again with one complete JSON object that follows the schema.` }];
  return {
    model,
    messages: [...messages, ...retry],
    response_format: { type: 'json_schema', json_schema: { name: schema.name, strict: true, schema: schema.schema } },
    temperature: 0,
  };
}

/** The answer's text as JSON, or why it is not (an empty answer is told apart). */
export function parseAnswerJson(content: string): { ok: true; json: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, json: JSON.parse(content) as unknown };
  } catch {
    return { ok: false, problem: content.trim() === '' ? 'the answer was empty' : 'the answer was not JSON' };
  }
}

/** The first issue of a failed parse as `path: message` (`(answer)` for the whole answer), at most 300 characters. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const path = issue.path.length === 0 ? '(answer)' : issue.path.join('.');
  const text = `${path}: ${issue.message}`;
  return text.length <= 300 ? text : `${text.slice(0, 299)}…`;
}
