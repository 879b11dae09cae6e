/**
 * Whether the service answers: calls and streams report here, and the page shows a banner while it does not (and
 * hides it when a call gets through again).
 */
type Listener = () => void;

function createConnection() {
  let online = true;
  const listeners = new Set<Listener>();
  const set = (next: boolean) => {
    if (next === online) return;
    online = next;
    for (const listener of listeners) listener();
  };
  return {
    up: () => set(true),
    down: () => set(false),
    isOnline: () => online,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const connection = createConnection();
