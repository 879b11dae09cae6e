/**
 * The write fence: how the side-effect guard lets a control whose words name a side effect act when the page shows
 * it may change nothing stored (a button outside any form that writes, a link), on condition that it really sends
 * nothing. Once raised on a page, every request that could write (any method but GET, HEAD and OPTIONS: a fetch, an
 * XHR, a form's POST navigation, a beacon) is stopped in the browser before it leaves, and recorded; the step runner
 * then fails the step in which it was tried (`side_effect_blocked`). The fence stays up for the rest of the page's
 * life (a confirmation page reached through a "Delete account" link posts with a button that may say only "Yes"),
 * and comes down only when a later control names a side effect that an answer allowed.
 *
 * A page without a fence routes nothing: interception sends each request through this process, which is why the
 * fence is raised only when a control's words call for it.
 */
import type { Page, Route } from 'playwright';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Fence {
  /** The control whose words raised it, as the message names it (`"Remove"`), and the kind they named. */
  because: { name: string; kind: string };
  handler: (route: Route) => Promise<void>;
  /** Writes stopped and not yet reported: `POST http://…/admin/users/bob`. */
  caught: string[];
}

const fences = new WeakMap<Page, Fence>();

/** Raises the fence on `page` (a fence already up keeps the control that raised it first). */
export async function raiseWriteFence(page: Page, because: { name: string; kind: string }): Promise<void> {
  if (fences.has(page)) return;
  const fence: Fence = {
    because,
    caught: [],
    handler: async (route) => {
      const request = route.request();
      if (READS.has(request.method().toUpperCase())) {
        await route.fallback();
        return;
      }
      fence.caught.push(`${request.method().toUpperCase()} ${request.url()}`);
      await route.abort('blockedbyclient');
    },
  };
  fences.set(page, fence);
  // On the page's context: a window the page opens (a popup) is fenced too.
  await page.context().route('**/*', fence.handler);
}

/** Lowers the fence on `page`, if one is up: a later control named a side effect an answer allowed. */
export async function lowerWriteFence(page: Page): Promise<void> {
  const fence = fences.get(page);
  if (fence === undefined) return;
  fences.delete(page);
  await page.context().unroute('**/*', fence.handler).catch(() => undefined);
}

const sockets = new WeakMap<Page, number>();

/**
 * Counts the page's open WebSockets from its creation on (the browser pool calls it on each page it makes): what a
 * control sends over one (a LiveView's or a Blazor circuit's events) is no request the fence can see, so on such a
 * page the guard decides by the control's words alone, as it did before the fence.
 */
export function watchSockets(page: Page): void {
  page.on('websocket', (socket) => {
    sockets.set(page, (sockets.get(page) ?? 0) + 1);
    socket.on('close', () => sockets.set(page, Math.max(0, (sockets.get(page) ?? 1) - 1)));
  });
}

/** Whether the page has a WebSocket open (only known for a page `watchSockets` watched; others count as none). */
export function socketOpen(page: Page): boolean {
  return (sockets.get(page) ?? 0) > 0;
}

/** Whether a fence is up on `page`. */
export function writeFenceRaised(page: Page): boolean {
  return fences.has(page);
}

/**
 * Why the step fails, when the fence stopped a write since the last report: the writes, and the control that raised
 * it. Undefined when it stopped none (or none is up). Each stopped write is reported once.
 */
export function writesStopped(page: Page): string | undefined {
  const fence = fences.get(page);
  if (fence === undefined || fence.caught.length === 0) return undefined;
  const caught = fence.caught.splice(0);
  const shown = caught.slice(0, 3).join(', ') + (caught.length > 3 ? ` and ${caught.length - 3} more` : '');
  return (
    `Stopped a write after "${fence.because.name}": its name names a real side effect (${fence.because.kind.replace(/_/g, ' ')}) that no answer ` +
    `allowed, so it was clicked only on condition that the page then sent nothing that could write (it is not a control that submits a ` +
    `form that writes). The page then sent ${shown}, stopped in the browser before it reached the server. ` +
    'To let a run do it, answer the question about it when the task asks, or say so in the task.'
  );
}
