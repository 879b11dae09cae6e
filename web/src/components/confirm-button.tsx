/**
 * A destructive action asked twice: the first press shows what will happen with "Yes" and "Cancel" in the page (no
 * browser dialog), focus moving to the question's buttons so a keyboard user lands on them, and back to the button
 * after Cancel.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  onConfirm,
  busy = false,
}: {
  /** The button's text ("Delete"). */
  label: ReactNode;
  /** Its accessible name when several sit on one page ("Revoke CI key"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
    else if (cancelled) ask.current?.focus();
  }, [asking, cancelled]);
  if (!asking) {
    return (
      <button
        ref={ask}
        type="button"
        className="danger"
        aria-label={ariaLabel}
        disabled={busy}
        onClick={() => {
          setCancelled(false);
          setAsking(true);
        }}
      >
        {label}
      </button>
    );
  }
  return (
    <span role="group" aria-label={question} className="confirm">
      <span>{question}</span>
      <button
        ref={yes}
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button
        type="button"
        onClick={() => {
          setCancelled(true);
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </span>
  );
}
