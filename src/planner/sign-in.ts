/**
 * "Sign in as the demo user", "log in with the demo email", "sign in as demo@example.test": the usual four steps
 * (go to /login unless the plan is on a sign-in page already, fill the email or username, fill the password, click
 * the button the task named), with the credentials taken from configured test values, never guessed.
 *
 * Which test values: a name is password-like when its words include "password" (or pass, pwd, passcode), and
 * identity-like when they include email, mail, username, user or login and it is not password-like. The words of
 * "as …" and "with …" other than user/account/email/password/credentials ("demo", "admin") must all be words of the
 * name. One candidate each is used; none asks to configure it; several ask which (an answer naming one decides).
 */
import type { PlanStep, PlanValue, Target } from '../core/plan.js';
import { onSignInPage } from './pages.js';
import { question, steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { describeValue, nameInAnswer } from './values.js';
import { matchOutsideQuotes, wordsOf } from './words.js';

const SIGN_IN = /^((?:sign|log)\s*-?\s*(?:in|on)|login|logon|authenticate)(?:\s+(?:to|into|on|at)\s+(?:the\s+)?(?:site|app|application|shop|store|account|dashboard|portal))?(.*)$/i;
const WHO = /\bas\s+(.+?)(?=\s+(?:with|using|via)\s|$)/i;
const CREDENTIALS = /\b(?:with|using|via)\s+(.+?)(?=\s+as\s|$)/i;
const EMAIL = /[^\s@'"]+@[^\s@'"]+\.[^\s@'"]+/;

const GENERIC = new Set(['user', 'users', 'account', 'credentials', 'credential', 'login', 'details', 'email', 'password', 'username', 'and', 'the', 'a', 'an', 'my', 'our', 'your', 'their', 'of', 'in', 'test', 'value', 'values', 'address']);
const IDENTITY_WORDS = ['email', 'username', 'user', 'login'];
const PASSWORD_WORDS = ['password'];

export function readSignIn(clause: string, context: ReadingContext): Reading {
  const match = matchOutsideQuotes(clause, SIGN_IN);
  if (match === undefined) return UNKNOWN;
  const [, verb = '', rest = ''] = match;
  if (rest.trim() !== '' && !/^\s+(?:as|with|using|via)\s/i.test(rest)) return UNKNOWN;

  const who = WHO.exec(rest)?.[1]?.trim();
  const credentials = CREDENTIALS.exec(rest)?.[1]?.trim();
  const literalEmail = EMAIL.exec(`${who ?? ''} ${credentials ?? ''}`)?.[0];
  const qualifiers = wordsOf(`${who ?? ''} ${credentials ?? ''}`.replace(EMAIL, ' ')).filter((word) => !GENERIC.has(word));
  const whose = who !== undefined && literalEmail === undefined ? `${who}'s` : 'the sign-in';

  const identity: Pick = literalEmail !== undefined ? { value: { kind: 'literal', text: literalEmail } } : pick('email', IDENTITY_WORDS, qualifiers, whose, context);
  // Once the identity is a named test value, its other words ("demo", "admin") choose among passwords too.
  const identityWords = identity.value?.kind === 'testValue' ? wordsOf(identity.value.name).filter((word) => !IDENTITY_WORDS.includes(word)) : [];
  const password = pickPreferring(identityWords, (words) => pick('password', PASSWORD_WORDS, words, whose, context), qualifiers);
  if (identity.missing && password.missing) {
    const subject = whose === 'the sign-in' ? 'the sign-in email and password' : `${whose} email and password`;
    return question(
      `Which test values hold ${subject}? Configure them in testValueSecretRefs.`,
      `"${clause}" needs ${subject}, and no configured test value holds them (configured: ${listNames(context.testValueNames)}).`,
    );
  }
  for (const part of [identity, password]) {
    if (part.question !== undefined) return question(part.question, part.ambiguity ?? '');
  }

  const button = /^log/i.test(verb) ? 'Log in' : 'Sign in';
  const plan: PlanStep[] = [];
  if (!onSignInPage(context.visited)) plan.push({ action: 'navigate', description: 'Go to /login', url: '/login' });
  const identityField: Target = { by: 'label', name: identityLabel(identity.value!), exact: false };
  plan.push(
    { action: 'fill', description: `Fill the ${JSON.stringify(identityField.name)} field with ${describeValue(identity.value!)}`, target: identityField, value: identity.value! },
    { action: 'fill', description: `Fill the "Password" field with ${describeValue(password.value!)}`, target: { by: 'label', name: 'Password', exact: false }, value: password.value! },
    { action: 'click', description: `Click the ${JSON.stringify(button)} button`, target: { by: 'role', role: 'button', name: button, exact: false } },
  );
  return steps(plan);
}

/** `choose` with the identity's words added to the qualifiers when that still finds a name, else without them. */
function pickPreferring(extra: readonly string[], choose: (qualifiers: readonly string[]) => Pick, qualifiers: readonly string[]): Pick {
  const plain = choose(qualifiers);
  if (plain.value !== undefined || extra.length === 0) return plain;
  const narrowed = choose([...new Set([...qualifiers, ...extra])]);
  return narrowed.value !== undefined ? narrowed : plain;
}

interface Pick {
  value?: PlanValue;
  missing?: boolean;
  question?: string;
  ambiguity?: string;
}

/** The one configured name for the `what` of a sign-in, or the question to ask about it. */
function pick(what: 'email' | 'password', kindWords: readonly string[], qualifiers: readonly string[], whose: string, context: ReadingContext): Pick {
  const isPassword = (name: string) => wordsOf(name).some((word) => PASSWORD_WORDS.includes(word));
  const fits = (name: string) => {
    const words = wordsOf(name);
    const ofKind = what === 'password' ? isPassword(name) : !isPassword(name) && words.some((word) => kindWords.includes(word));
    return ofKind && qualifiers.every((word) => words.includes(word));
  };
  let candidates = context.testValueNames.filter(fits);
  if (what === 'email' && candidates.length > 1) {
    const emails = candidates.filter((name) => wordsOf(name).includes('email'));
    if (emails.length > 0) candidates = emails;
  }
  if (candidates.length > 1 && qualifiers.length === 0) {
    // "sign in" with no "as …": prefer the plainest name (`email` over `admin_email`).
    const fewest = Math.min(...candidates.map((name) => wordsOf(name).length));
    const plainest = candidates.filter((name) => wordsOf(name).length === fewest);
    if (plainest.length === 1) candidates = plainest;
  }
  const subject = `${whose} ${what}`;
  if (candidates.length === 1) return { value: { kind: 'testValue', name: candidates[0] } };

  const text =
    candidates.length === 0
      ? `Which test value holds ${subject}? Configure it in testValueSecretRefs.`
      : `Which test value holds ${subject}: ${candidates.join(' or ')}?`;
  const answered = context.answerTo(text);
  const chosen = answered === undefined ? undefined : nameInAnswer(answered, candidates.length > 0 ? candidates : context.testValueNames);
  if (chosen !== undefined) return { value: { kind: 'testValue', name: chosen } };
  return {
    missing: candidates.length === 0,
    question: text,
    ambiguity:
      candidates.length === 0
        ? `Signing in needs ${subject}, and no configured test value holds it (configured: ${listNames(context.testValueNames)}).`
        : `Several configured test values could hold ${subject}: ${candidates.join(', ')}.`,
  };
}

function identityLabel(value: PlanValue): string {
  if (value.kind === 'literal') return value.text.includes('@') ? 'Email' : 'Username';
  const words = wordsOf(value.name);
  return !words.includes('email') && (words.includes('username') || words.includes('login')) ? 'Username' : 'Email';
}

function listNames(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}
