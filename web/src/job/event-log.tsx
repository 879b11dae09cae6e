/** Every event of a job's history, one line each, virtualised (a long run writes thousands). */
import { formatTime } from '../format.js';
import { eventSummary } from './event-summary.js';
import type { JobEvent } from './merge-events.js';
import { VirtualList } from './virtual-list.js';

export function EventLog({ events, live }: { events: readonly JobEvent[]; live: boolean }) {
  return (
    <VirtualList
      items={events}
      label="Events"
      keyOf={(event) => event.index}
      estimateSize={29}
      follow={live}
      className="events"
      testId="events"
      renderItem={(event) => (
        <div className="event-line">
          <span className="muted event-index">#{event.index}</span>
          <time className="muted" dateTime={event.at}>
            {formatTime(event.at)}
          </time>
          <code>{event.type}</code>
          <span className="job-text">{eventSummary(event)}</span>
        </div>
      )}
    />
  );
}
