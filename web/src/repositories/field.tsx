/** A labelled form field with its help and the API's (or the form's) message for it, tied by aria-describedby. */
import { useId, type ReactNode } from 'react';

export function Field({
  label,
  error,
  help,
  children,
}: {
  label: string;
  error?: string;
  help?: ReactNode;
  /** Renders the control with the id and description it must carry. */
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode;
}) {
  const id = useId();
  const described = [help ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': described || undefined, ...(error ? { 'aria-invalid': true as const } : {}) })}
      {help ? (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
