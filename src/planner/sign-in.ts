/**
 * "Sign in as the demo user", "log in with the demo email", "sign in as demo@example.test": the usual four steps
 * (go to /login unless the plan is on a sign-in page already, fill the email or username, fill the password, click
 * the form's submit control, found at run time whatever the page calls it), with the credentials taken from configured test values, never guessed.
 *
 * Which test values: a name is password-like when its words include "password" (or pass, pwd, passcode), and
 * identity-like when they include email, mail, username, user or login and it is not password-like. The words of
 * "as …" and "with …" other than user/account/email/password/credentials ("demo", "admin") must all be words of the
 * name. One candidate each is used; none asks to configure it; several ask which (an answer naming one decides).
 *
 * Values written in the task are used as written (explicitCredentials): "sign in as demo@acme.test with password
 * 'hunter2'", "log in as demo@acme.test / demoPassword", "sign in with email X and password Y", "log in as ada with
 * password Y". A value phrase is read like any other (resolve-value.ts): quoted or value-shaped is a literal, a
 * configured name is that test value, read from its secret at run time.
 */
import type { PlanStep, PlanValue, Target } from '../core/plan.js';
import { SIGN_IN_PAGE } from '../core/plan.js';
import { credentialsByRole } from './credential-roles.js';
import { onSignInPage } from './pages.js';
import { question, steps, UNKNOWN, type Reading, type ReadingContext } from './reading.js';
import { resolveValue } from './resolve-value.js';
import { describeValue, fieldValuePairs, isEvidentValue, nameInAnswer } from './values.js';
import { maskQuotes, matchOutsideQuotes, trimPunctuation, unquote, wordsOf } from './words.js';

// "log into the app": the "to" may follow "log in" without a space.
const SIGN_IN =
  /^((?:sign|log)\s*-?\s*(?:in|on)|login|logon|authenticate)(?:\s*(?:to|into|on|at)\s+(?:the\s+|my\s+|your\s+)?(?:site|website|web\s?app|app|application|shop|store|account|dashboard|portal|system|platform))?(.*)$/i;
// "as X with password Y", and "as X (password Y)": the aside's brackets are blanked before this reads it.
const WHO = /\bas\s+(.+?)(?=\s+(?:with|using|via)\s|\s{2,}(?=(?:the\s+)?(?:password|passcode|pwd|pass)\b)|$)/i;
const CREDENTIALS = /\b(?:with|using|via)\s+(.+?)(?=\s+as\s|$)|\s{2,}((?:the\s+)?(?:password|passcode|pwd|pass)\b.+?)\s*$/i;
const EMAIL = /[^\s@'"]+@[^\s@'"]+\.[^\s@'"]+/;

const IDENTITY_FIELD = /^(?:e-?mail(?:\s+address)?|username|user\s*name|user|login|account)$/i;
const PASSWORD_FIELD = /^(?:password|passcode|passphrase|pwd|pass|pin)$/i;
const DETERMINER = /^(?:the|a|an|my|your|our|their|this|that)\s/i;

const GENERIC = new Set(['user', 'users', 'account', 'credentials', 'credential', 'login', 'details', 'email', 'password', 'username', 'and', 'the', 'a', 'an', 'my', 'our', 'your', 'their', 'of', 'in', 'test', 'value', 'values', 'address']);
const IDENTITY_WORDS = ['email', 'username', 'user', 'login'];
const PASSWORD_WORDS = ['password'];

export function readSignIn(clause: string, context: ReadingContext): Reading {
  const match = matchOutsideQuotes(clause, SIGN_IN);
  if (match === undefined) return UNKNOWN;
  const [, verb = ''] = match;
  const rest = credentialsByRole(match[2] ?? '');
  if (rest.trim() !== '' && !/^\s+(?:as|with|using|via)\s/i.test(rest)) return UNKNOWN;

  const masked = maskQuotes(rest);
  const explicit = explicitCredentials(WHO.exec(masked) === null ? undefined : cut(rest, WHO.exec(masked)!), CREDENTIALS.exec(masked) === null ? undefined : cut(rest, CREDENTIALS.exec(masked)!), context);
  if ('reading' in explicit) return explicit.reading;
  const { who, credentials } = explicit;
  const literalEmail = explicit.identity === undefined ? EMAIL.exec(`${who ?? ''} ${credentials ?? ''}`)?.[0] : undefined;
  const qualifiers = wordsOf(`${who ?? ''} ${credentials ?? ''}`.replace(EMAIL, ' ')).filter((word) => !GENERIC.has(word));
  const whose = who !== undefined && literalEmail === undefined && explicit.identity === undefined ? `${who}'s` : 'the sign-in';

  let identity: Pick =
    explicit.identity !== undefined
      ? { value: explicit.identity }
      : literalEmail !== undefined
        ? { value: { kind: 'literal', text: literalEmail } }
        : pick('email', IDENTITY_WORDS, qualifiers, whose, context);
  // "log in as ada with password 'x'": with the password written out, a plain name that no test value fits is the
  // username as written ("the demo user" still refers to a stored one).
  if (identity.value === undefined && explicit.password !== undefined && who !== undefined && !DETERMINER.test(who) && !/\s/.test(who)) {
    identity = { value: { kind: 'literal', text: unquote(who) ?? who } };
  }
  // Once the identity is a named test value, its other words ("demo", "admin") choose among passwords too.
  const identityWords = identity.value?.kind === 'testValue' ? wordsOf(identity.value.name).filter((word) => !IDENTITY_WORDS.includes(word)) : [];
  const password: Pick =
    explicit.password !== undefined ? { value: explicit.password } : pickPreferring(identityWords, (words) => pick('password', PASSWORD_WORDS, words, whose, context), qualifiers);
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
  // Its path is a guess: the run stays where it is when the page already shows a sign-in form (page "sign-in").
  if (!onSignInPage(context.visited)) plan.push({ action: 'navigate', description: 'Go to /login', url: '/login', page: SIGN_IN_PAGE });
  const identityField: Target = { by: 'label', name: identityLabel(identity.value!), exact: false };
  plan.push(
    { action: 'fill', description: `Fill the ${JSON.stringify(identityField.name)} field with ${describeValue(identity.value!)}`, target: identityField, value: identity.value! },
    { action: 'fill', description: `Fill the "Password" field with ${describeValue(password.value!)}`, target: { by: 'label', name: 'Password', exact: false }, value: password.value! },
    // By purpose, not by the task's verb: the page may say Sign in, Log in, Continue… (src/core/sign-in-submit.ts).
    { action: 'click', description: `Click the sign-in button (${JSON.stringify(button)} or whatever the form calls it)`, target: { by: 'role', role: 'button', name: button, exact: false, purpose: 'signIn' } },
  );
  return steps(plan);
}

interface Explicit {
  /** What is left of "as …" and "with …" for choosing configured test values by their words. */
  who?: string;
  credentials?: string;
  identity?: PlanValue;
  password?: PlanValue;
}

/**
 * The credentials the task writes out: "as X / Y" (identity and password), "as X" when X is a value (an address,
 * a quoted name, a configured name), "with password Y", "with email X and password Y", "with X and 'Y'". Parts
 * that are not written-out values stay in `who` and `credentials`, for choosing test values by their words.
 */
function explicitCredentials(who: string | undefined, credentials: string | undefined, context: ReadingContext): Explicit | { reading: Reading } {
  const found: Explicit = { who, credentials };
  let identityPhrase: string | undefined;
  let passwordPhrase: string | undefined;
  if (who !== undefined) {
    const pair = /^(.+?)\s*\/\s*(.+)$/.exec(who);
    if (pair !== null && !/^https?:/i.test(who)) {
      identityPhrase = pair[1];
      passwordPhrase = pair[2];
      found.who = undefined;
    } else if (isEvidentValue(who, context.testValueNames)) {
      identityPhrase = who;
      found.who = undefined;
    }
  }
  if (credentials !== undefined) {
    const pairs = fieldValuePairs(credentials, context.testValueNames);
    const rest: string[] = [];
    for (const part of pairs ?? []) {
      if (IDENTITY_FIELD.test(part.field)) identityPhrase ??= part.value;
      else if (PASSWORD_FIELD.test(part.field)) passwordPhrase ??= part.value;
      else rest.push(`${part.field} ${part.value}`);
    }
    if (pairs === undefined) {
      // "with demo@acme.test and 'hunter2'": values without field names, the identity first.
      const values = credentials.split(/\s+and\s+|\s*[,/]\s*/i).map((part) => trimPunctuation(part));
      if (values.length > 0 && values.every((value) => isEvidentValue(value, context.testValueNames))) {
        if (identityPhrase === undefined && values.length === 2) [identityPhrase, passwordPhrase] = values;
        else if (values.length === 1 && identityPhrase === undefined && EMAIL.test(values[0]!)) identityPhrase = values[0];
        else if (values.length === 1) passwordPhrase ??= values[0];
        else rest.push(credentials);
      } else {
        rest.push(credentials);
      }
    }
    found.credentials = rest.length === 0 ? undefined : rest.join(' ');
  }
  for (const [phrase, key] of [
    [identityPhrase, 'identity'],
    [passwordPhrase, 'password'],
  ] as const) {
    if (phrase === undefined) continue;
    const resolved = resolveValue(phrase, context);
    if ('reading' in resolved) return resolved;
    found[key] = resolved.value;
  }
  return found;
}

/** The first group of a match on the masked text, cut from the text itself. */
function cut(text: string, match: RegExpExecArray): string {
  const group = match[1] ?? match[2]!;
  const start = match.index + match[0].indexOf(group);
  return text.slice(start, start + group.length).trim();
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
