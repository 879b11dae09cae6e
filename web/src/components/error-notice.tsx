import { ApiError } from '../api/client.js';

/** An API error with its message (and code), never a blank page. */
export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div role="alert" className="notice error">
      <p>
        {message}
        {code ? <span className="muted"> ({code})</span> : null}
      </p>
      {retry ? (
        <button type="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** What a screen shows for an id that is unknown or another organization's: the API answers both the same. */
export function NotFound({ what }: { what: string }) {
  return (
    <div role="alert" className="notice">
      <h1>Not found</h1>
      <p>There is no {what} with this id in your organization.</p>
    </div>
  );
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;
