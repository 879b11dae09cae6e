/**
 * The answer form of a `review_required` job (spec 2.2): one field per question, in order, and Answer, which posts
 * `POST /api/jobs/:id/clarifications` `{ answers }` and hands the child job's id to `onAnswered` (the child carries
 * the task with the answers and the parent's trigger; it is runnable or asks again). Used by the New job screen and
 * the job page. Questions are the planner's text: rendered as text only.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import { createdJobOf } from '../api/created-job.js';
import { fieldErrorsOf, otherFieldErrors, type FieldErrors } from '../api/field-errors.js';
import { ErrorNotice } from './error-notice.js';

export interface ClarificationFormProps {
  /** The review_required job whose questions these are. */
  jobId: string;
  /** Its `resolution.questions`, in order: one answer each. */
  questions: readonly string[];
  /** Called with the child job's id once the answers are accepted. */
  onAnswered: (childId: string) => void;
}

const answerField = (index: number) => `answers.${index}`;

export function ClarificationForm({ jobId, questions, onAnswered }: ClarificationFormProps) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [answers, setAnswers] = useState<string[]>(() => questions.map(() => ''));
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const empty: FieldErrors = {};
    answers.forEach((answer, index) => {
      if (answer.trim() === '') empty[answerField(index)] = 'Give an answer to this question';
    });
    setFieldErrors(empty);
    setError(null);
    if (Object.keys(empty).length > 0) {
      document.getElementById(`${formId}-${Object.keys(empty)[0]!.split('.')[1]}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const answer = await api(jobSchemas.A.created, `/api/jobs/${encodeURIComponent(jobId)}/clarifications`, {
        method: 'POST',
        body: { answers: answers.map((text) => text.trim()) },
      });
      void queryClient.invalidateQueries({ queryKey: ['jobs'] });
      onAnswered(createdJobOf(answer).jobId);
    } catch (caught) {
      const errors = fieldErrorsOf(caught);
      const shown = (field: string) => /^answers\.\d+$/.test(field) && Number(field.split('.')[1]) < questions.length;
      setFieldErrors(Object.fromEntries(Object.entries(errors).filter(([field]) => shown(field))));
      // A count mismatch or a job answered meanwhile (409) belongs to the whole form.
      setError(Object.keys(errors).length > 0 && otherFieldErrors(errors, shown).length === 0 ? null : caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="clarification-form" onSubmit={(event) => void submit(event)} noValidate aria-label="Answer the questions">
      <ol className="questions">
        {questions.map((question, index) => {
          const id = `${formId}-${index}`;
          const message = fieldErrors[answerField(index)];
          return (
            <li key={index}>
              <label htmlFor={id}>{question}</label>
              <textarea
                id={id}
                rows={2}
                value={answers[index] ?? ''}
                required
                maxLength={2000}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? `${id}-error` : undefined}
                onChange={(event) => {
                  const value = event.target.value;
                  setAnswers((current) => current.map((item, at) => (at === index ? value : item)));
                }}
              />
              {message ? (
                <p id={`${id}-error`} className="field-error">
                  {message}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Answering…' : 'Answer'}
        </button>
      </div>
    </form>
  );
}

/** What led to the questions (`resolution.ambiguities` and `assumptions`), as text; nothing when both are empty. */
export function ReviewNotes({ ambiguities, assumptions }: { ambiguities: readonly string[]; assumptions: readonly string[] }) {
  return (
    <>
      {ambiguities.length > 0 ? (
        <>
          <h3>What is unclear</h3>
          <ul className="review-notes">
            {ambiguities.map((text, index) => (
              <li key={index}>{text}</li>
            ))}
          </ul>
        </>
      ) : null}
      {assumptions.length > 0 ? (
        <>
          <h3>What it would assume</h3>
          <ul className="review-notes">
            {assumptions.map((text, index) => (
              <li key={index}>{text}</li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
