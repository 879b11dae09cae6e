import { useEffect, useState } from 'react';

/** The time now, again every `ms` while `ticking` (a running job's duration counts up). */
export function useNow(ticking: boolean, ms = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ticking, ms]);
  return now;
}
