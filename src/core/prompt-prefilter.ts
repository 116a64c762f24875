/**
 * The phrase classifier's prefilter for the shell (the agent hook's fast path, issue 28):
 * derived from the classifier's own tables (./phrases.ts, every language in them) and its
 * own folding (`foldText`), rendered as an awk function by `prefilterAwk`. Pure.
 *
 * It is exact in one direction: when the classifier could call a prompt a session end or
 * ambiguous, the prefilter says "may end" (then Node decides, as before); it may say so
 * for an ordinary prompt too, never "ordinary" for one that is not. Why that holds:
 * - a prompt is a session end or ambiguous only when a phrase of `session_end` or
 *   `ambiguous` is among its words, so every word of that phrase is a substring of the
 *   folded prompt; each word is cut at its joiners (' and -, which other characters fold
 *   to), and the parts are the needles of that phrase: all of them must be present;
 * - the shell folds what it reads as the classifier would for every character that can
 *   make a needle: ASCII capitals, and the capitals of the other scripts listed in `folds`;
 * - any other character whose folding differs from itself and yields a needle's character
 *   (full-width and mathematical letters, ligatures, compatibility ideographs, the
 *   combining marks a needle's letters decompose into) is `flagged`: a prompt holding one
 *   goes to Node, and so does one holding a JSON `\u` escape.
 */
import { CJK, DEFAULT_PHRASES, foldText, normalizeText, type PhraseLists } from './phrases.js';

/** What a prompt must hold for one phrase to be in it. */
export interface PhraseTest {
  /** substrings that must all be present (most selective first) */
  needles: string[];
  /**
   * the phrase's words, each cut at its joiners, when they must also stand in this order
   * with nothing but separators between them (not for CJK, which the classifier matches
   * inside a run of text)
   */
  words?: string[][];
}

export interface PromptPrefilter {
  /** one entry per phrase that can end a session or be ambiguous */
  groups: PhraseTest[];
  /** characters the shell folds itself (beside ASCII capitals): [from, to] */
  folds: [string, string][];
  /** characters that send a prompt to Node */
  flagged: string[];
}

/** The scripts whose capitals the shell folds itself (Cyrillic); any other capital that folds into a needle is flagged. */
const SHELL_FOLDED = (cp: number) => cp >= 0x400 && cp <= 0x4ff;

let builtIn: PromptPrefilter | null = null;

/** The prefilter of `lists` (the built-in lists by default, computed once). */
export function promptPrefilter(lists: PhraseLists = DEFAULT_PHRASES): PromptPrefilter {
  if (lists !== DEFAULT_PHRASES) return derive(lists);
  builtIn ??= derive(lists);
  return builtIn;
}

function derive(lists: PhraseLists): PromptPrefilter {
  const groups: PhraseTest[] = [];
  for (const phrase of [...lists.session_end, ...lists.ambiguous]) {
    const norm = normalizeText(phrase).trim();
    const words = norm.split(' ').map((w) => w.split(/['-]+/).filter(Boolean));
    const parts = words.flat();
    if (!parts.length) continue; // normalizes to nothing: the classifier never matches it
    // a one-letter part is kept only when it is all there is
    const strong = parts.filter((p) => [...p].length > 1);
    const needles = [...new Set(strong.length ? strong : parts)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    // CJK phrases match inside a run of text (the classifier pads nothing): no word order to test
    groups.push(CJK.test(norm) ? { needles } : { needles, words });
  }
  const key = (g: PhraseTest) => JSON.stringify(g);
  const kept = [...new Map(groups.map((g) => [key(g), g])).values()];

  const alphabet = new Set(kept.flatMap((g) => g.needles.flatMap((n) => [...n])));
  const makesNeedle = (s: string) => [...s].some((c) => alphabet.has(c));
  for (let cp = 0; cp < 0x80; cp++) {
    const c = String.fromCodePoint(cp);
    const folded = foldText(c);
    if (folded !== c.toLowerCase() && makesNeedle(folded)) throw new Error(`prefilter: ASCII ${JSON.stringify(c)} folds to ${JSON.stringify(folded)}`);
  }
  const folds: [string, string][] = [];
  const flagged = new Set<string>();
  for (let cp = 0x80; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // only as a \u escape in JSON, which goes to Node
    const c = String.fromCodePoint(cp);
    const folded = foldText(c);
    if (folded === c) continue;
    // lower case may depend on what is around (Σ at the end of a word is ς)
    if (!makesNeedle(folded) && !makesNeedle(foldText(`a${c}`).slice(1))) continue;
    if (SHELL_FOLDED(cp) && [...folded].length === 1) folds.push([c, folded]);
    else flagged.add(c);
  }
  // a needle's letter written decomposed (и + U+0306 for й): its marks
  for (const a of alphabet) for (const m of [...a.normalize('NFD')].slice(1)) flagged.add(m);
  for (const a of alphabet) if (flagged.has(a)) throw new Error(`prefilter: needle character ${JSON.stringify(a)} is flagged`);
  return { groups: kept, folds, flagged: [...flagged].sort() };
}

/** A string's UTF-8 bytes, one char per byte. */
const utf8Bytes = (s: string): string => String.fromCharCode(...new TextEncoder().encode(s));

/** A byte string (one char per byte) as an awk string literal: printable ASCII as is, every other byte in octal. */
export function awkLiteral(binary: string): string {
  let out = '"';
  for (const ch of binary) {
    const b = ch.charCodeAt(0);
    if (b === 0x22 || b === 0x5c) out += `\\${ch}`;
    else if (b >= 0x20 && b < 0x7f && b !== 0x27) out += ch;
    else out += `\\${b.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/** A string as an awk string literal of its UTF-8 bytes. */
export const awkString = (s: string): string => awkLiteral(utf8Bytes(s));

/**
 * The prefilter as awk (byte semantics: the caller runs awk with LC_ALL=C): the function
 * `handoff_may_end(p)` takes a prompt as it stands inside the agent's JSON (escapes and all)
 * and returns 1 when the classifier could call it a session end or ambiguous.
 */
export function prefilterAwk(p: PromptPrefilter = promptPrefilter()): string {
  const bytes = utf8Bytes;
  // flagged characters by lead byte, then by every byte but the last
  const byLead = new Map<string, Map<string, string>>();
  for (const c of p.flagged) {
    const b = bytes(c);
    const lead = b[0];
    const prefix = b.slice(0, -1);
    const m = byLead.get(lead) ?? new Map<string, string>();
    m.set(prefix, (m.get(prefix) ?? '') + b.slice(-1));
    byLead.set(lead, m);
  }
  const raw = awkLiteral;
  const lines: string[] = [];
  lines.push('function handoff_any(p, pre, lasts,   i) {');
  lines.push('  if (!index(p, pre)) return 0');
  lines.push('  for (i = 1; i <= length(lasts); i++) if (index(p, pre substr(lasts, i, 1))) return 1');
  lines.push('  return 0');
  lines.push('}');
  lines.push('function handoff_flagged(p) {');
  for (const [lead, prefixes] of [...byLead].sort()) {
    const tests = [...prefixes].sort().map(([prefix, lasts]) => `handoff_any(p, ${raw(prefix)}, ${raw(lasts)})`);
    lines.push(`  if (index(p, ${raw(lead)}) && (${tests.join(' || ')})) return 1`);
  }
  lines.push('  return 0');
  lines.push('}');
  lines.push('function handoff_may_end(p,   q, i, j, rest) {');
  lines.push('  if (index(p, "\\\\u") || handoff_flagged(p)) return 1');
  lines.push('  p = tolower(p)');
  const foldsByLead = new Map<string, [string, string][]>();
  for (const [from, to] of p.folds) {
    const b = bytes(from);
    foldsByLead.set(b[0], [...(foldsByLead.get(b[0]) ?? []), [b, bytes(to)]]);
  }
  for (const [lead, list] of [...foldsByLead].sort()) {
    lines.push(`  if (index(p, ${raw(lead)})) {`);
    for (const [from, to] of list) lines.push(`    if (index(p, ${raw(from)})) gsub(${raw(from)}, ${raw(to)}, p)`);
    lines.push('  }');
  }
  // For the word order, the prompt as the classifier reads it: JSON escapes as the
  // characters they stand for (\\ first, so \\n stays a backslash and an n), and the code
  // spans dropped as normalizeText drops them (a fence up to the next fence or the end, then
  // `...` within a line). Between words and at a joiner, any run of bytes that are not ASCII
  // letters, digits or _ (a separator, a joiner, a stripped ' or -, or a letter of another
  // script); before and after the phrase, one of them or the end.
  lines.push('  q = p; gsub(/\\\\\\\\/, "\\001", q); gsub(/\\\\n/, "\\n", q); gsub(/\\\\[rtbf"\\/]/, " ", q); gsub(/\\001/, " ", q)');
  lines.push('  while ((i = index(q, "```")) > 0) {');
  lines.push('    rest = substr(q, i + 3); j = index(rest, "```")');
  lines.push('    q = substr(q, 1, i - 1) " " (j ? substr(rest, j + 3) : "")');
  lines.push('  }');
  lines.push('  gsub(/`[^`\\n]*`/, " ", q)');
  const NOT_WORD = '[^a-z0-9_]';
  for (const g of p.groups) {
    const present = g.needles.map((n) => `index(p, ${awkString(n)})`).join(' && ');
    if (!g.words) {
      lines.push(`  if (${present}) return 1`);
      continue;
    }
    const re = `(^|${NOT_WORD})${g.words.map((w) => w.join(`${NOT_WORD}+`)).join(`${NOT_WORD}+`)}(${NOT_WORD}|$)`;
    lines.push(`  if (${present} && q ~ ${awkString(re)}) return 1`);
  }
  lines.push('  return 0');
  lines.push('}');
  return lines.join('\n');
}
