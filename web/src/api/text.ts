/**
 * A plain-text answer (a check's generated Playwright source): same-origin, with the session cookie, and only when
 * the service says it is text; the text is shown as text, never interpreted.
 */
import { ApiError, errorOf } from './client.js';

export async function apiText(path: string, signal?: AbortSignal): Promise<string> {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'text/plain' }, signal });
  if (!response.ok) throw await errorOf(response);
  const type = response.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('text/plain')) throw new ApiError(response.status, 'response.invalid', `The service answered ${path} with ${type || 'no content type'}, not text`);
  return response.text();
}
