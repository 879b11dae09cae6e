/**
 * Which of a conversation's jobs a turn is about (a chat thread's, a pull request's: newest first, of the caller's
 * organization). Pure; the same rules in every channel.
 */
export interface ConversationJob {
  id: string;
  status: string;
  resolution: { questions: string[] } | null;
  parentJobId: string | null;
}

/**
 * The newest job still waiting for answers: review_required with questions, and not answered yet (an answered job
 * stays review_required; its child, newer, is the job that carries the answers). A newer job that asks nothing does not
 * close an older one's questions.
 */
export function awaitingAnswers<J extends ConversationJob>(jobs: readonly J[]): J | undefined {
  const answered = new Set(jobs.map((job) => job.parentJobId).filter((id): id is string => id !== null));
  return jobs.find((job) => job.status === 'review_required' && job.resolution !== null && !answered.has(job.id));
}

/** The newest failed job: what "not a bug" disputes. */
export function latestFailed<J extends ConversationJob>(jobs: readonly J[]): J | undefined {
  return jobs.find((job) => job.status === 'failed');
}
