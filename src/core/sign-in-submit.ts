/**
 * Which control on a page submits its sign-in, whatever its label: sites say Sign in, Log in, Login, Sign on,
 * Continue, Submit, Next… for the same action, and the task's verb ("log in") says nothing about the page's word.
 *
 * The choice is made among the page's visible buttons (the browser side describes them; this part is pure):
 *   1. the buttons of the form that holds the password field (the filled one when several forms have one) named
 *      with a sign-in verb ("Sign in", "Log in", "Login", "Sign on", "Sign in to Acme");
 *   2. else that form's other submit controls ("Continue", "Next", "Go →", an unnamed-verb submit button);
 *   3. else, as a last resort, a submit control of that form that names another way in ("Sign in with Google"):
 *      nothing else submits the form, so it is what submits it;
 *   4. with no form around the password field (a script-driven page), a button anywhere named with a sign-in verb.
 * Never: sign up / register / create account, forgot / reset password, show password, cancel, back, help. Ties in a
 * tier are broken only by "is a real submit control"; a tie that remains is `several`, never a pick: a page with
 * both "Sign in" and "Sign in with Google" gets "Sign in", a page with "Sign up" and "Log in" gets "Log in", a form
 * with two unnamed-verb submit buttons is a question for the task's author.
 */

/** One visible button of the page, as the browser described it. */
export interface SubmitCandidate {
  /** Its accessible name, whitespace collapsed ("" when it has none). */
  name: string;
  /** Clicking it submits its form: a <button> of type submit (the default) or an <input type=submit|image> in a form. */
  submits: boolean;
  /** Where it is: in the form holding the password field, in another form, or in no form. */
  form: 'password' | 'other' | 'none';
}

export interface SubmitPage {
  candidates: readonly SubmitCandidate[];
  /** Some visible password field of the page is inside a form. */
  passwordInForm: boolean;
}

export type SubmitChoice = { found: true; index: number } | { found: false; reason: 'none' | 'several'; matches: number };

export type NameKind = 'signIn' | 'generic' | 'alternative' | 'never' | 'other';

/** Controls that are never the submit of a sign-in, whatever else their name says. */
const NEVER =
  /\b(?:sign|log)\s*-?\s*(?:up|out)\b|\b(?:signup|logout|signout|register|registration|join|forgot|forgotten|reset|recover|cancel|back|close|dismiss|show|hide|reveal|toggle|remember|help|trouble|subscribe|newsletter|delete|remove|clear)\b|\bcreate\b.*\baccount\b|\bnew\s+account\b/;
/** Another way in than the form's password: a provider, a passkey, a link or a code by email. */
const ALTERNATIVE =
  /\b(?:with|using|via|through)\b|\b(?:passkey|passkeys|sso|saml|oauth|google|apple|facebook|microsoft|github|gitlab|twitter|linkedin|okta|azure)\b|\bsingle\s+sign\b|\bmagic\s+link\b|\b(?:email|text|send)\s+me\b|\bsend\s+(?:a\s+|me\s+a\s+)?(?:code|link)\b|\bone-?time\b/;
const SIGN_IN = /\b(?:sign|log)\s*-?\s*(?:in|on|me\s+in)\b|\b(?:login|logon|signin|signon|authenticate)\b/;
const GENERIC = /^(?:continue|submit|next|go|enter|ok|okay|proceed|done|let\s+me\s+in)\b/;

/** What a control's name says it does. */
export function nameKind(name: string): NameKind {
  const text = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (NEVER.test(text)) return 'never';
  if (ALTERNATIVE.test(text)) return 'alternative';
  if (SIGN_IN.test(text)) return 'signIn';
  if (GENERIC.test(text)) return 'generic';
  return 'other';
}

/** The control that submits the page's sign-in, or why there is not exactly one. */
export function chooseSignInSubmit(page: SubmitPage): SubmitChoice {
  const described = page.candidates.map((candidate, index) => ({ ...candidate, index, kind: nameKind(candidate.name) }));
  const tiers = page.passwordInForm
    ? (() => {
        const inForm = described.filter((candidate) => candidate.form === 'password' && candidate.kind !== 'never');
        return [
          inForm.filter((candidate) => candidate.kind === 'signIn'),
          inForm.filter((candidate) => candidate.kind === 'generic' || (candidate.kind === 'other' && candidate.submits)),
          inForm.filter((candidate) => candidate.kind === 'alternative' && candidate.submits),
        ];
      })()
    : [described.filter((candidate) => candidate.kind === 'signIn')];
  for (const tier of tiers) {
    if (tier.length === 1) return { found: true, index: tier[0]!.index };
    if (tier.length > 1) {
      const submitting = tier.filter((candidate) => candidate.submits);
      if (submitting.length === 1) return { found: true, index: submitting[0]!.index };
      return { found: false, reason: 'several', matches: tier.length };
    }
  }
  return { found: false, reason: 'none', matches: 0 };
}
