/**
 * Answers to a job's numbered clarification questions, read from lines a person wrote (a chat reply, a `/qa answer`
 * comment on a pull request): numbered lines (`1. yes`, `2) the Pro plan`, `3: no`) in any order, or else one answer
 * per non-empty line in order. Pure; the channel strips its own markup before handing the lines over.
 */
export type AnswerReading =
  | { answers: string[] }
  /** `count`: not one answer per question; `malformed`: a number out of range, a question answered twice, an empty answer. */
  | { problem: string; fault: 'count' | 'malformed' };

const NUMBERED = /^(\d{1,3})\s*[.):-]\s*(.*)$/;

export function readAnswerLines(rawLines: readonly string[], questionCount: number): AnswerReading {
  const lines = rawLines.map((line) => line.trim()).filter((line) => line !== '');
  const numbered = lines.map((line) => NUMBERED.exec(line));
  if (lines.length > 0 && numbered.every((match) => match !== null)) {
    const byNumber = new Map<number, string>();
    for (const match of numbered) {
      const number = Number(match![1]);
      const answer = match![2]!.trim();
      if (number < 1 || number > questionCount) return { problem: `There is no question ${number}; the questions are numbered 1 to ${questionCount}.`, fault: 'malformed' };
      if (byNumber.has(number)) return { problem: `Question ${number} is answered twice.`, fault: 'malformed' };
      if (answer === '') return { problem: `The answer to question ${number} is empty.`, fault: 'malformed' };
      byNumber.set(number, answer);
    }
    const missing = Array.from({ length: questionCount }, (_unused, index) => index + 1).filter((number) => !byNumber.has(number));
    if (missing.length > 0) {
      const plural = missing.length > 1 ? 's' : '';
      return { problem: `Still missing: the answer${plural} to question${plural} ${missing.join(', ')}.`, fault: 'count' };
    }
    return { answers: Array.from({ length: questionCount }, (_unused, index) => byNumber.get(index + 1)!) };
  }
  if (lines.length !== questionCount) {
    return {
      problem: `There ${questionCount === 1 ? 'is 1 question' : `are ${questionCount} questions`} and this reply has ${lines.length} answer line${lines.length === 1 ? '' : 's'}. Answer with one line per question, or number them (\`1. …\`).`,
      fault: 'count',
    };
  }
  return { answers: lines };
}
