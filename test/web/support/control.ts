/** The tests' side of the control server (serve.ts, control-actions.ts). */
import type { ServiceInfo } from './service-info.js';

/** The running service, as the global setup published it. */
export function serviceInfo(): ServiceInfo {
  const json = process.env.QA_WEB_SERVICE;
  if (!json) throw new Error('QA_WEB_SERVICE is not set: run these tests with `npx playwright test` (playwright.config.ts starts the service)');
  return JSON.parse(json) as ServiceInfo;
}

export async function control<T = unknown>(action: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${serviceInfo().controlUrl}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`control ${action}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A call to the service's API with an organization's API key, as a CI client would make it. */
export async function callWithKey(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${serviceInfo().base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
