import { describe, expect, it } from '@jest/globals';
import type { CodehostChannelContext } from '../../../src/core/channel-context.js';
import {
  ANNOTATIONS_MAX,
  CHECK_NAME_MAX,
  CHECK_SUMMARY_MAX,
  CHECK_TITLE_MAX,
  COMMENT_BODY_MAX,
  checkRunName,
  checkRunOutput,
  checkRunState,
  commentMarker,
  pullRequestComment,
} from '../../../src/notify/codehost/pull-request-markdown.js';
import { inert } from '../../../src/notify/codehost/safe-markdown.js';
import { buildProgressView } from '../../../src/notify/progress-view.js';
import { failedRun, JOB_ID, jobForNotification } from './job-fixtures.js';

const CONTEXT: CodehostChannelContext = {
  channel: 'codehost',
  provider: 'codehost',
  installationId: 42,
  owner: 'acme',
  repo: 'shop',
  pullNumber: 7,
  headSha: 'a'.repeat(40),
};
const view = (input: Parameters<typeof buildProgressView>[0]) => buildProgressView(input, { publicBaseUrl: 'https://qa.example.com' });
const comment = (input: Parameters<typeof buildProgressView>[0]) => pullRequestComment(view(input), CONTEXT);
const ZWSP = '\u200b';
const clarification = (questions: string[]) => ({ kind: 'needs_clarification' as const, questions, ambiguities: [], assumptions: [] });

/** A failed run whose assertion finding carries the page's text `text` as its title, expected and actual. */
function failedWith(text: string) {
  const run = failedRun();
  run.findings[1] = { ...run.findings[1]!, title: text, expected: text, actual: [text] };
  return run;
}

describe('the PR comment and check run of a job, by status', () => {
  it('starts with the hidden marker of the job, and links the job', () => {
    const body = comment(jobForNotification());
    expect(body.startsWith(`<!-- qa-job:${JOB_ID} -->\n`)).toBe(true);
    expect(commentMarker(JOB_ID)).toBe(`<!-- qa-job:${JOB_ID} -->`);
    expect(body).toContain(`[Job 6f1c2d3e](https://qa.example.com/jobs/${JOB_ID})`);
    expect(body).toContain('commit `aaaaaaa`');
  });

  it.each([
    ['queued', {}, '### ⏳ QA: Queued: waiting for a browser', { status: 'queued' }],
    ['running', { startedAt: new Date(0) }, '### 🔄 QA: Running step 2 of 3', { status: 'in_progress' }],
    ['passed', { startedAt: new Date(0), finishedAt: new Date(125_000) }, '### ✅ QA: Passed in 2 min 5 s (no findings)', { status: 'completed', conclusion: 'success' }],
    ['failed', { startedAt: new Date(0), finishedAt: new Date(4_000) }, '### ❌ QA: Failed after 4.0 s: no findings', { status: 'completed', conclusion: 'failure' }],
    ['errored', {}, '### ⚠️ QA: Errored: the job could not run', { status: 'completed', conclusion: 'failure' }],
    ['cancelled', {}, '### 🚫 QA: Cancelled', { status: 'completed', conclusion: 'cancelled' }],
    ['review_required', { resolution: clarification(['Which plan?']) }, '### ❓ QA: Needs answers to 1 question before it runs', { status: 'completed', conclusion: 'neutral' }],
  ] as const)('%s: headline and check-run state', (status, fields, headline, state) => {
    const events = status === 'running' ? [{ type: 'step.started', data: { index: 1, description: 'Open /pricing' } }] : status === 'errored' ? [{ type: 'job.errored', data: { reason: 'The target did not answer' } }] : undefined;
    const input = jobForNotification({ status, ...fields }, { events });
    expect(comment(input).split('\n')[1]).toBe(headline);
    expect(checkRunState(view(input))).toEqual(state);
    expect(checkRunOutput(view(input), CONTEXT).title).toBe(headline.replace(/^### \S+ QA: /, ''));
  });

  it('shows the running step with its text, and an errored job\'s reason', () => {
    const running = comment(jobForNotification({ status: 'running' }, { events: [{ type: 'step.started', data: { index: 0, description: 'Open /pricing' } }] }));
    expect(running).toContain('Step 1 of 3: Open /pricing');
    const errored = comment(jobForNotification({ status: 'errored' }, { events: [{ type: 'job.errored', data: { reason: 'The target did not answer' } }] }));
    expect(errored).toContain('Why: The target did not answer');
  });

  it('says why the service cancelled a job (a close, a newer push); a person\'s cancel stays plain', () => {
    const closed = jobForNotification({ status: 'cancelled' }, { events: [{ type: 'job.cancelled', data: { reason: 'pull_request_closed', message: 'the pull request was closed' } }] });
    expect(comment(closed).split('\n')[1]).toBe('### 🚫 QA: Cancelled: the pull request was closed');
    expect(checkRunOutput(view(closed), CONTEXT).title).toBe('Cancelled: the pull request was closed');
    expect(checkRunState(view(closed))).toEqual({ status: 'completed', conclusion: 'cancelled' });
    const superseded = jobForNotification({ status: 'cancelled' }, { events: [{ type: 'job.cancelled', data: { reason: 'superseded', message: 'a newer commit (bbbbbbb) was pushed to the pull request' } }] });
    expect(comment(superseded).split('\n')[1]).toBe('### 🚫 QA: Cancelled: a newer commit (bbbbbbb) was pushed to the pull request');
    const byPerson = jobForNotification({ status: 'cancelled' }, { events: [{ type: 'job.cancelled', data: {} }] });
    expect(comment(byPerson).split('\n')[1]).toBe('### 🚫 QA: Cancelled');
  });

  it('lists findings with expected and actual, the failing step\'s screenshot and the trace; the summary says the same', () => {
    const run = failedRun();
    run.findings[1] = { ...run.findings[1]!, title: 'Step 2 failed: Expect a heading to show "Gadgets Galore"', expected: 'Gadgets Galore', actual: ['Pricing', 'Starter'] };
    const body = comment(run);
    expect(body).toContain('#### Findings\n- **error** `assertion_failed`: Step 2 failed: Expect a heading to show "Gadgets Galore"\n  - expected: Gadgets Galore\n  - actual: "Pricing", "Starter"');
    expect(body).toContain('- **warning** `console_error`: The page logged an error');
    expect(body).toContain(`[Screenshot of step 2](https://qa.example.com/jobs/${JOB_ID}/artifacts/a-2)`);
    expect(body).toContain(`[trace.zip](https://qa.example.com/jobs/${JOB_ID}/artifacts/a-trace)`);
    const summary = checkRunOutput(view(run), CONTEXT).summary;
    expect(summary).toContain('  - expected: Gadgets Galore\n  - actual: "Pricing", "Starter"');
    expect(summary).not.toContain('qa-job:');
  });

  it('numbers a review_required job\'s questions and says how to answer with /qa answer', () => {
    const body = comment(jobForNotification({ status: 'review_required', resolution: clarification(['Which plan?', 'Which account?']) }));
    expect(body).toContain('#### Questions before I run this\n1. Which plan?\n2. Which account?');
    expect(body).toContain('comment on this pull request with `/qa answer` and one numbered answer per line');
    expect(body).toContain('```\n/qa answer\n1. …\n2. …\n```');
    const yesNo = comment(jobForNotification({ status: 'review_required', resolution: clarification(['Should the run really delete or remove this data?']) }));
    expect(yesNo).toContain('To answer (`yes` or `no`)');
  });

  it('drops the answer instructions once answered, and names the job that carries on', () => {
    const answered = jobForNotification(
      { status: 'review_required', resolution: clarification(['Which plan?']) },
      { events: [{ type: 'job.review_required', data: {} }, { type: 'job.answered', data: { childJobId: '0a1b2c3d-0000-4000-8000-000000000000' } }] },
    );
    const body = comment(answered);
    expect(body).not.toContain('/qa answer');
    expect(body).toContain('Answered: continues as job `0a1b2c3d`.');
  });

  it('mentions the commenter who asked, and only that login', () => {
    expect(pullRequestComment(view(jobForNotification()), { ...CONTEXT, requestedBy: 'octocat' })).toContain('asked by @octocat');
  });

  it('names the check run after its check or task, short and on one line', () => {
    expect(checkRunName(view(jobForNotification({ task: null }, { checkTask: 'Sign in\nand open a slow page' })))).toBe('QA: Sign in and open a slow page');
    const long = checkRunName(view(jobForNotification({ task: 'x'.repeat(500) })));
    expect(long).toHaveLength(CHECK_NAME_MAX);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('text from the page under test is inert', () => {
  it('pings nobody: @org/team, @user and e-mail addresses are broken by a zero-width space', () => {
    const body = comment(failedWith('Contact @acme/security or @octocat at ops@acme.example'));
    expect(body).not.toMatch(/@acme\/security|@octocat|@acme\.example/);
    expect(body).toContain(`@${ZWSP}acme/security`);
  });

  it('renders no HTML: an <img onerror> stays text', () => {
    const body = comment(failedWith('<img src=x onerror=alert(1)>'));
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;img src=x onerror=alert\\(1\\)&gt;');
  });

  it('forges no link: ](javascript:…) and [text](url) are escaped, bare URLs are not linked', () => {
    const body = comment(failedWith('[click](javascript:alert(1)) and https://evil.example and www.evil.example'));
    expect(body).not.toContain('](javascript:');
    expect(body).toContain('\\[click\\]\\(javascript:alert\\(1\\)\\)');
    expect(body).not.toContain('https://evil.example');
    expect(body).not.toMatch(/www\.evil/);
  });

  it('opens no code span, emphasis, heading or table: backticks and other punctuation are escaped', () => {
    expect(inert('```js\n# title\n| a | b |\n**bold** _it_ ~~del~~ $x$', 200)).toBe('\\`\\`\\`js \\# title \\| a \\| b \\| \\*\\*bold\\*\\* \\_it\\_ \\~\\~del\\~\\~ \\$x\\$');
    expect(comment(failedWith('a `b` c'))).toContain('a \\`b\\` c');
  });

  it('references no issue: #12 and org/repo#12 are broken', () => {
    const body = comment(failedWith('see #12 and acme/shop#3'));
    expect(body).not.toMatch(/#\d/);
  });

  it('keeps a question from the planner inert too, and the task', () => {
    const body = comment(jobForNotification({ status: 'review_required', task: 'Ping @acme/everyone', resolution: clarification(['Tell @acme/everyone <b>now</b>?']) }));
    expect(body).not.toContain('@acme/everyone');
    expect(body).not.toContain('<b>');
  });
});

describe('sizes stay under the code host\'s limits', () => {
  it('a 200 KB finding, task, step text and reason give a comment and summary far under 64 KB', () => {
    const huge = `${'<b>@x/y '.repeat(25_000)}`;
    expect(huge.length).toBeGreaterThanOrEqual(200_000);
    const run = failedWith(huge);
    run.job.task = huge;
    const body = comment(run);
    const output = checkRunOutput(view(run), CONTEXT);
    expect(body.length).toBeLessThan(COMMENT_BODY_MAX / 4);
    expect(output.summary.length).toBeLessThan(CHECK_SUMMARY_MAX / 4);
    expect(output.title.length).toBeLessThanOrEqual(CHECK_TITLE_MAX);
    const errored = comment(jobForNotification({ status: 'errored', task: huge }, { events: [{ type: 'job.errored', data: { reason: huge } }] }));
    expect(errored.length).toBeLessThan(COMMENT_BODY_MAX / 4);
  });

  it('many long questions are capped, and the comment still fits', () => {
    const questions = Array.from({ length: 500 }, (_, i) => `${i} ${'&'.repeat(5_000)}`);
    const body = comment(jobForNotification({ status: 'review_required', resolution: clarification(questions) }));
    expect(body.length).toBeLessThanOrEqual(COMMENT_BODY_MAX);
    expect(body).not.toContain('cut to fit');
    expect(body).toMatch(/…and 4\d\d more \(see the job\)/);
    expect(body).toContain(`[Job 6f1c2d3e](https://qa.example.com/jobs/${JOB_ID})`);
  });
});

describe('annotations', () => {
  it('a failed check annotates each file it covers (at most 50), at line 1; nothing else is annotated', () => {
    const files = Array.from({ length: 60 }, (_, i) => `src/page-${i}.tsx`);
    const output = checkRunOutput(view(failedRun()), CONTEXT, ['src/pricing.tsx', 'src/pricing.tsx', ...files]);
    expect(output.annotations).toHaveLength(ANNOTATIONS_MAX);
    expect(output.annotations![0]).toMatchObject({ path: 'src/pricing.tsx', start_line: 1, end_line: 1, annotation_level: 'failure' });
    expect(output.annotations![0]!.message).toContain('Step 2 failed: Expect 3 plan cards (expected: 3 of "Plan"; actual: 2)');
    expect(checkRunOutput(view(jobForNotification({ status: 'passed' })), CONTEXT, files).annotations).toBeUndefined();
    expect(checkRunOutput(view(failedRun()), CONTEXT).annotations).toBeUndefined();
  });
});

describe('why a pull-request run ran', () => {
  const withSelection = (selection: NonNullable<CodehostChannelContext['selection']>) => ({ ...CONTEXT, selection });

  it("says which flow's changed files chose the check, and how many checks ran and were skipped, in the comment and the check run", () => {
    const context = withSelection({
      mode: 'touched',
      reason: '1 check of 4 ran: the change touches 1 flow ("Sign in"); 3 skipped',
      why: ['covers the flow "Sign in", whose file changed: src/pages/login.tsx'],
      ran: 1,
      skipped: 3,
    });
    const input = view(jobForNotification());
    const body = pullRequestComment(input, context);
    expect(body).toContain('**Why it ran:** covers the flow "Sign in", whose file changed: src/pages/login.tsx');
    expect(body).toContain('<sub>1 check of 4 ran: the change touches 1 flow \\("Sign in"\\); 3 skipped.</sub>');
    expect(checkRunOutput(input, context).summary).toContain('**Why it ran:** covers the flow "Sign in"');
  });

  it('lists several reasons one per line', () => {
    const context = withSelection({ mode: 'touched', reason: '2 checks of 2 ran', why: ['covers the flow "Cart", whose file changed: src/cart.ts', 'marked always-run in the repository settings'], ran: 2, skipped: 0 });
    expect(pullRequestComment(view(jobForNotification()), context)).toContain(`**Why it ran:**\n- ${inert(context.selection.why[0]!, 300)}\n- marked always\\-run in the repository settings\n`);
  });

  it('says why every check ran (a shared file changed), and that none was skipped', () => {
    const reason = 'every check ran: shared file changed (package-lock.json)';
    const body = pullRequestComment(view(jobForNotification()), withSelection({ mode: 'all', reason, why: [reason], ran: 5, skipped: 0 }));
    expect(body).toContain('**Why it ran:** every check ran: shared file changed \\(package\\-lock.json\\)');
    expect(body).toContain('<sub>5 checks ran on this pull request, none skipped.</sub>');
  });

  it('keeps hostile flow names and paths inert: no mention, link, HTML or code span', () => {
    const why = 'covers the flow "@acme/admins [x](https://evil.example) <img src=x onerror=alert(1)>", whose file changed: `src/#12.ts`';
    const body = pullRequestComment(view(jobForNotification()), withSelection({ mode: 'touched', reason: 'r', why: [why], ran: 1, skipped: 0 }));
    const line = body.split('\n').find((text) => text.startsWith('**Why it ran:**'))!;
    expect(line).toContain(`@${ZWSP}acme/admins`);
    expect(line).not.toContain('<img');
    expect(line).not.toContain('](https://');
    expect(line).toContain(`\\\`src/\\#${ZWSP}12.ts\\\``);
  });

  it('shows nothing of a selection on runs a person asked for', () => {
    expect(comment(jobForNotification())).not.toContain('Why it ran');
  });
});
