/**
 * The substantive rule's excluded-subject test as a POSIX shell function, generated from its
 * one definition (./substantive.ts) by scripts/build.mjs into githooks/post-commit: a commit
 * whose subject is excluded gets no reminder, so the shim answers it without starting Node.
 * Pure: text out.
 *
 * `handoff_excluded LINE` succeeds when LINE, the first line of a commit message, starts an
 * excluded subject. It is exactly `EXCLUDED_SUBJECT` / `EXCLUDED_PHRASE` on that line; the
 * rule reads the whole subject (its first paragraph, lines joined, blanks trimmed), so for a
 * subject over two lines or one starting with a blank the function may say no where the rule
 * says yes, never the other way round: then Node decides, as before.
 */
import { EXCLUDED_PHRASE, EXCLUDED_TYPES } from './substantive.js';

/** `docs` -> `[Dd][Oo][Cc][Ss]`: ASCII case-insensitive, as the rule's `i` flag is for ASCII. */
function anyCase(word: string): string {
  return [...word].map((c) => (c === ' ' ? "' '" : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');
}

export function excludedSubjectShell(): string {
  for (const t of EXCLUDED_TYPES) if (!/^[a-z]+$/.test(t)) throw new Error(`excluded type '${t}' is not plain lowercase letters: the shell test cannot say it`);
  if (!/^[a-z]+( [a-z]+)*$/.test(EXCLUDED_PHRASE))
    throw new Error(`excluded phrase '${EXCLUDED_PHRASE}' is not plain lowercase words: the shell test cannot say it`);
  // Longest type first: a type that is a prefix of another must not take its subjects (after
  // the shorter one a letter follows, never '(', '!' or ':', so nothing is lost either).
  const types = [...EXCLUDED_TYPES].sort((a, b) => b.length - a.length);
  return [
    'handoff_excluded() {',
    '  case $1 in',
    `    ${anyCase(EXCLUDED_PHRASE)}*) return 0 ;;`,
    ...types.map((t) => `    ${anyCase(t)}*) handoff_rest=\${1#${'?'.repeat(t.length)}} ;;`),
    '    *) return 1 ;;',
    '  esac',
    "  # an optional scope, '(' up to the first ')', then '!:' or ':'",
    '  case $handoff_rest in',
    "    '('*')'*) handoff_rest=${handoff_rest#*')'} ;;",
    "    '('*) return 1 ;;",
    '  esac',
    '  case $handoff_rest in',
    "    ':'* | '!:'*) return 0 ;;",
    '  esac',
    '  return 1',
    '}',
  ].join('\n');
}
