/**
 * The answer form of a `review_required` job (spec 2.2): one labelled field per question, in order; Answer posts
 * `POST /api/jobs/:id/clarifications` `{ answers }` and hands the child job's id to `onAnswered`. Same props as
 * helper webjobs' `clarification-form.tsx` (the lead keeps one of the two). Questions are the planner's text:
 * rendered as text only.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { jobSchemas } from '../../../src/api/schemas/jobs.js';
import { api } from '../api/client.js';
import { ErrorNotice } from './error-notice.js';

export interface AnswerQuestionsProps {
  jobId: string;
  questions: readonly string[];
  onAnswered: (childJobId: string) => void;
}

export function AnswerQuestions({ jobId, questions, onAnswered }: AnswerQuestionsProps) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [answers, setAnswers] = useState<string[]>(() => questions.map(() => ''));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await api(jobSchemas.A.created, `/api/jobs/${encodeURIComponent(jobId)}/clarifications`, {
        method: 'POST',
        body: { answers: answers.map((answer) => answer.trim()) },
      });
      // The answer's id key is computed per naming set: Set A names it `jobId`.
      void queryClient.invalidateQueries({ queryKey: ['job', jobId] });
      onAnswered((created as unknown as { jobId: string }).jobId);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="answer-questions" onSubmit={(event) => void submit(event)} aria-label="Answer the questions">
      <ol>
        {questions.map((question, index) => (
          <li key={index}>
            <label htmlFor={`${formId}-${index}`} className="job-text">
              {question}
            </label>
            <textarea
              id={`${formId}-${index}`}
              rows={2}
              required
              maxLength={2000}
              value={answers[index] ?? ''}
              onChange={(event) => {
                const value = event.target.value;
                setAnswers((current) => current.map((item, at) => (at === index ? value : item)));
              }}
            />
          </li>
        ))}
      </ol>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || answers.some((answer) => answer.trim() === '')}>
          {busy ? 'Answering…' : 'Answer'}
        </button>
      </div>
    </form>
  );
}
