/**
 * Does a value look like a real credential? The checks behind the generic assignment rule:
 * entropy, character classes, and the placeholders, variables, code and prose
 * that follow a keyword in ordinary text and are not secrets.
 */
import { isObjectId } from './object-id.js';

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const k of counts.values()) {
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Words that stand for a value rather than being one ("password=changeme", "token: none"). */
const PLACEHOLDER_WORDS = new Set(
  'changeme change_me change-me changethis password passwd passw0rd secret token apikey api_key example sample test testing dummy fake placeholder redacted removed hidden masked none null nil undefined true false empty todo tbd fixme n/a foo bar baz foobar qwerty default value string required optional unset unknown'.split(
    ' ',
  ),
);

/** Fragments that mark a value as a placeholder wherever they occur. */
const PLACEHOLDER_PARTS =
  /^\[[^\]]*\]$|^\{|\(.*\)|changeme|change_me|example|placeholder|redacted|your[_-]|yourtoken|yourkey|yourpass|_here\b|-here\b|dummy|x{4,}|X{4,}|\*{3,}|\.{3}|…|•{3,}|<[^>]*>|\$\{|\$\(|\{\{|\}\}|%\(|%[A-Za-z_]+%|^\$[A-Za-z_]/i;

/** `cfg.auth.token`, `process.env.DB_PASSWORD`, `getToken()`, `os.environ["KEY"]`, `ENV.fetch`. */
function isCodeReference(v: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\s*[([]/.test(v)) return true;
  const parts = v.split('.');
  return parts.length > 1 && parts.every((p) => /^(?:[a-z]+(?:[A-Z][a-z]*)*\d{0,2}|[A-Z][A-Z0-9_]*|[a-z][a-z0-9_]*|[A-Z][a-z]+(?:[A-Z][a-z]*)*)$/.test(p));
}

/** A path, a plain URL, a variable name, a version or a number: not a credential. */
function isOrdinaryValue(v: string): boolean {
  if (/^(?:~|\.{1,2})?\/[\w.@/-]*$/.test(v) || /^[A-Za-z]:\\/.test(v)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(v)) return true;
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v)) return true; // an environment variable's name
  if (/^[A-Za-z_][\w.-]*=[^=]/.test(v)) return true; // another assignment (`token = PWD=/x`), judged on its own
  if (/^v?\d+(?:[.:-]\d+)*[a-z]?$/i.test(v)) return true;
  // Words and a version: `SalesResults-1.2`, `jjwt-jackson-0.11.2`.
  if (/^[A-Za-z]+(?:[-_][A-Za-z]+)*[-_.]v?\d+(?:\.\d+)+$/.test(v) && !/[a-z][A-Z].*[a-z][A-Z].*[a-z][A-Z]/.test(v.replace(/[A-Z][a-z]+/g, 'W'))) return true;
  if (/^[a-z]+(?:[_-][a-z]+)*$/.test(v)) return true; // words: reset_required, read-only
  if (/^[A-Z]?[a-z]+(?:[A-Z][a-z]+)+$/.test(v)) return true; // camelCase words: refreshToken
  return /^[A-Z][a-z]+$/.test(v);
}

export type Strength = 'strong' | 'weak' | 'prose' | 'url';

const MIN_LENGTH: Record<Strength, number> = { strong: 8, weak: 16, prose: 10, url: 6 };
const MIN_ENTROPY: Record<Strength, number> = { strong: 2.5, weak: 3.3, prose: 2.7, url: 2 };

/**
 * Why `value` (quotes removed) is not a credential, or null when it looks like one.
 * `strong`: after password/secret/token; `weak`: after key/auth alone; `prose`: after
 * "is"/"was" in a sentence; `url`: the password of `scheme://user:password@host`.
 */
export function notASecret(value: string, strength: Strength): string | null {
  const v = value;
  if (v.length < MIN_LENGTH[strength]) return 'short';
  if (/\s/.test(v)) return 'prose';
  const lower = v.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower) || PLACEHOLDER_PARTS.test(v)) return 'placeholder';
  if (/^(.)\1+$/.test(v) || /^(.{1,3})\1{3,}$/.test(v)) return 'repeated';
  if (/abcdefgh|bcdefghi|01234567|12345678|qwertyui/i.test(v)) return 'an alphabet';
  if (isCodeReference(v) || isOrdinaryValue(v)) return 'ordinary';
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(v)).length;
  if (classes < 2) return 'one class';
  if (entropy(v) < MIN_ENTROPY[strength]) return 'low entropy';
  if (strength !== 'strong') {
    if (isObjectId(v)) return 'a commit id';
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return 'an id';
  }
  if (strength === 'prose' && (classes < 3 || !/\d/.test(v)) && !/^[A-Za-z0-9+/=_-]{20,}$/.test(v)) return 'a word';
  return null;
}
