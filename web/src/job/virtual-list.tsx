/**
 * A long list that renders only the rows in view (@tanstack/react-virtual), for a job's thousands of events and
 * hundreds of steps. It stays a list to assistive technology: an `<ol>` whose rendered `<li>`s carry their position
 * and the list's size (`aria-posinset`/`aria-setsize`). The scroll box is focusable, so arrow keys and Page Down
 * scroll it (Home and End go to the first and last row); rows are measured as they render (their height varies with text and screenshots). While `follow` is
 * on and the reader is at the bottom, new rows scroll into view.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  /** The list's accessible name. */
  label: string;
  keyOf: (item: T) => string | number;
  estimateSize: number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Keep the newest row in view while the reader is at the bottom (a live job). */
  follow?: boolean;
  className?: string;
  testId?: string;
}

const AT_BOTTOM_PX = 48;

/**
 * Scrolls `box` to its very end. Rows measured on the way change the list's height (estimates differ from real
 * rows, and the measuring renders come a frame or two later), so one jump can land short: keep jumping, a frame at
 * a time, until the end has held for five frames (at most 60).
 */
function scrollToEnd(box: HTMLElement): void {
  let frames = 0;
  let held = 0;
  let lastHeight = -1;
  const step = () => {
    box.scrollTop = box.scrollHeight;
    held = box.scrollHeight === lastHeight ? held + 1 : 0;
    lastHeight = box.scrollHeight;
    frames += 1;
    if (held < 5 && frames < 60) requestAnimationFrame(step);
  };
  step();
}

export function VirtualList<T>({ items, label, keyOf, estimateSize, renderItem, follow = false, className, testId }: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    getItemKey: (index) => keyOf(items[index]!),
    overscan: 6,
    // React 19 warns about flushSync inside a render; measuring asynchronously is smooth enough.
    useFlushSync: false,
  });

  useEffect(() => {
    if (follow && atBottom.current && items.length > 0 && scrollRef.current) scrollToEnd(scrollRef.current);
  }, [follow, items.length]);

  return (
    <div
      ref={scrollRef}
      className={`virtual-scroll${className ? ` ${className}` : ''}`}
      tabIndex={0}
      role="region"
      aria-label={`${label} (scrollable)`}
      data-testid={testId}
      onKeyDown={(event) => {
        // Home and End reach the first and last rows: the browser's own smooth scroll stops short when rows it
        // passes are measured on the way (their height differs from the estimate).
        if (event.target !== event.currentTarget || items.length === 0) return;
        if (event.key === 'End') {
          event.preventDefault();
          scrollToEnd(event.currentTarget);
        } else if (event.key === 'Home') {
          event.preventDefault();
          event.currentTarget.scrollTop = 0;
        }
      }}
      onScroll={(event) => {
        const box = event.currentTarget;
        atBottom.current = box.scrollHeight - box.scrollTop - box.clientHeight < AT_BOTTOM_PX;
      }}
    >
      <ol aria-label={label} className="virtual-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            aria-setsize={items.length}
            aria-posinset={row.index + 1}
            style={{ transform: `translateY(${row.start}px)` }}
          >
            {renderItem(items[row.index]!, row.index)}
          </li>
        ))}
      </ol>
    </div>
  );
}
