/**
 * The handoff document `docs/HANDOFF-<n>.md` (docs/work-items.md; the source's
 * template): seven required sections, headed in English, Chinese or Russian, and a SEED
 * section between `<!-- SEED:BEGIN -->` and `<!-- SEED:END -->` that only the tool writes.
 * Pure: the facts about the repository come in as callbacks.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';

export type Lang = 'en' | 'zh' | 'ru';
export const LANGS: readonly Lang[] = ['en', 'zh', 'ru'];

export const SEED_BEGIN = '<!-- SEED:BEGIN -->';
export const SEED_END = '<!-- SEED:END -->';

export type SectionKey = 'goal' | 'done' | 'stopped' | 'next' | 'questions' | 'guards' | 'references';

/** The seven required sections and their headings in each language. */
export const SECTIONS: readonly { key: SectionKey; names: Record<Lang, string> }[] = [
  { key: 'goal', names: { en: 'Goal', zh: '目标', ru: 'Цель' } },
  { key: 'done', names: { en: 'Done', zh: '已完成', ru: 'Сделано' } },
  { key: 'stopped', names: { en: 'Where it stopped', zh: '当前位置', ru: 'Где остановились' } },
  { key: 'next', names: { en: 'Next steps', zh: '下一步', ru: 'Следующие шаги' } },
  { key: 'questions', names: { en: 'Open questions', zh: '待决问题', ru: 'Открытые вопросы' } },
  { key: 'guards', names: { en: 'Guards', zh: '约束', ru: 'Не делать' } },
  { key: 'references', names: { en: 'References', zh: '参考', ru: 'Ссылки' } },
];

export type DocProblemCode = 'missing-document' | 'missing-section' | 'seed-markers' | 'placeholder' | 'missing-path' | 'unknown-receipt';

export interface DocProblem {
  code: DocProblemCode;
  /** 1-based line, when the problem sits on one */
  line: number | null;
  message: string;
}

/** What validation needs to know about the repository. */
export interface DocFacts {
  /** the document's folder, relative to the work tree root (`docs`) */
  docDir: string;
  /** folders at the root of the work tree */
  rootFolders: ReadonlySet<string>;
  /** does this path (relative to the work tree root, `/`-separated) exist? */
  pathExists(path: string): boolean;
  /** does a receipt with this id exist (notes or legacy JSON receipts)? */
  receiptExists(id: string): boolean;
}

interface Line {
  n: number;
  text: string;
  inSeed: boolean;
  inFence: boolean;
}

type SeedSpan = { begin: number; end: number } | { problem: string };

/** Finds the SEED markers (each alone on its line, once, BEGIN before END); 0-based line indexes. */
export function locateSeed(lines: string[]): SeedSpan {
  const begins: number[] = [];
  const ends: number[] = [];
  lines.forEach((l, i) => {
    const t = l.trim();
    if (t === SEED_BEGIN) begins.push(i);
    else if (t === SEED_END) ends.push(i);
  });
  if (!begins.length && !ends.length) return { problem: `the SEED markers are missing (${SEED_BEGIN} ... ${SEED_END})` };
  if (begins.length !== 1) return { problem: begins.length ? `${SEED_BEGIN} appears ${begins.length} times` : `${SEED_BEGIN} is missing` };
  if (ends.length !== 1) return { problem: ends.length ? `${SEED_END} appears ${ends.length} times` : `${SEED_END} is missing` };
  if (ends[0] < begins[0]) return { problem: `${SEED_END} comes before ${SEED_BEGIN}` };
  return { begin: begins[0], end: ends[0] };
}

function annotate(text: string): { lines: Line[]; seed: SeedSpan } {
  const raw = text.replace(/^\uFEFF/, '').split('\n');
  const seed = locateSeed(raw);
  const lines: Line[] = [];
  let fence: string | null = null;
  raw.forEach((t, i) => {
    const inSeed = 'begin' in seed && i >= seed.begin && i <= seed.end;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(t);
    let inFence = fence !== null;
    if (!inSeed && f) {
      if (fence === null) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && t.trim() === f[1]) fence = null;
      inFence = true;
    }
    lines.push({ n: i + 1, text: t.replace(/\r$/, ''), inSeed, inFence });
  });
  return { lines, seed };
}

/** A heading's text reduced for comparison: case, numbering, trailing colon and a parenthetical dropped. */
export function normalizeHeading(text: string): string {
  return text
    .trim()
    .replace(/^\d+[.)]\s*/, '')
    .replace(/\s*[(（][^()（）]*[)）]\s*$/, '')
    .replace(/[:：]\s*$/, '')
    .trim()
    .toLowerCase();
}

const SECTION_BY_HEADING = new Map<string, SectionKey>();
for (const s of SECTIONS) for (const name of Object.values(s.names)) SECTION_BY_HEADING.set(normalizeHeading(name), s.key);

/** The required sections the document's headings cover (a heading in any of the languages counts). */
export function sectionsPresent(text: string): Set<SectionKey> {
  const found = new Set<SectionKey>();
  for (const l of annotate(text).lines) {
    if (l.inSeed || l.inFence) continue;
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(l.text);
    const key = h && SECTION_BY_HEADING.get(normalizeHeading(h[1]));
    if (key) found.add(key);
  }
  return found;
}

const PLACEHOLDER = /\{\{[^{}\n]*\}\}/g;
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const CODE_TOKEN = /`([^`\s]+)`/g;
const RECEIPT_REF = /(?:\breceipt|回执)\s*[:：]\s*`?([A-Za-z0-9][A-Za-z0-9._-]*)`?/gi;

/** Receipt ids the document cites (`receipt: <id>`, `回执: <id>`), in order, each once. */
export function citedReceipts(text: string): { id: string; line: number }[] {
  const seen = new Set<string>();
  const out: { id: string; line: number }[] = [];
  for (const l of annotate(text).lines) {
    if (l.inSeed) continue;
    for (const m of l.text.matchAll(RECEIPT_REF)) {
      const id = m[1].replace(/[.]+$/, '');
      if (!seen.has(id)) {
        seen.add(id);
        out.push({ id, line: l.n });
      }
    }
  }
  return out;
}

function linkTarget(raw: string, docDir: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('#') || raw.startsWith('//')) return null;
  let p = raw.replace(/[#?].*$/, '');
  if (!p) return null;
  try {
    p = decodeURIComponent(p);
  } catch {}
  return p.startsWith('/') ? posix.normalize(p.slice(1)) : posix.normalize(posix.join(docDir, p));
}

function codeTarget(token: string, rootFolders: ReadonlySet<string>): string | null {
  if (!token.includes('/') || /:\/\//.test(token) || /[*?[\]{}<>$]/.test(token)) return null;
  const p = token
    .replace(/^\.\//, '')
    .replace(/#L\d+.*$/, '')
    .replace(/:\d+(?:[:-]\d+)?$/, '');
  const first = p.split('/')[0];
  if (!first || !rootFolders.has(first)) return null;
  return posix.normalize(p);
}

/** Every problem of the document: sections, SEED markers, placeholders, paths, receipts. */
export function validateHandoffDoc(text: string, facts: DocFacts): DocProblem[] {
  const problems: DocProblem[] = [];
  const { lines, seed } = annotate(text);
  const present = sectionsPresent(text);
  for (const s of SECTIONS) {
    if (!present.has(s.key)) {
      problems.push({ code: 'missing-section', line: null, message: `missing section ${s.names.en} (${s.names.zh} / ${s.names.ru})` });
    }
  }
  if ('problem' in seed) problems.push({ code: 'seed-markers', line: null, message: seed.problem });
  for (const l of lines) {
    if (l.inSeed) continue;
    for (const m of l.text.matchAll(PLACEHOLDER)) {
      problems.push({ code: 'placeholder', line: l.n, message: `placeholder ${short(m[0])} left outside the SEED section` });
    }
    if (l.inFence) continue;
    const seen = new Set<string>();
    const check = (path: string | null, shown: string) => {
      if (path === null || seen.has(path) || path === '.' || path.startsWith('../')) return;
      seen.add(path);
      if (!facts.pathExists(path)) problems.push({ code: 'missing-path', line: l.n, message: `referenced path ${shown} does not exist` });
    };
    const withoutPlaceholders = l.text.replace(PLACEHOLDER, '');
    for (const m of withoutPlaceholders.matchAll(LINK)) check(linkTarget(m[1], facts.docDir), m[1]);
    for (const m of withoutPlaceholders.matchAll(CODE_TOKEN)) check(codeTarget(m[1], facts.rootFolders), m[1]);
  }
  for (const c of citedReceipts(text)) {
    if (!facts.receiptExists(c.id)) problems.push({ code: 'unknown-receipt', line: c.line, message: `receipt ${c.id} does not exist` });
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function short(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...}}` : s;
}

/** One line listing every problem (what the refusal prints). */
export function describeProblems(path: string, problems: DocProblem[]): string {
  const parts = problems.map((p) => (p.line ? `line ${p.line}: ${p.message}` : p.message));
  return `${path} failed validation (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${parts.join('; ')}`;
}

/** The document with everything between the SEED markers removed (the markers on adjacent lines). */
export function emptySeed(text: string): string {
  const lines = text.split('\n');
  const span = locateSeed(lines);
  if ('problem' in span) return text;
  return [...lines.slice(0, span.begin + 1), ...lines.slice(span.end)].join('\n');
}

/**
 * `handoffDocHash`: the `git hash-object` id of the document with its SEED section
 * emptied, so the tool's own SEED rewrite never changes it.
 */
export function handoffDocHash(text: string): string {
  const body = Buffer.from(emptySeed(text), 'utf8');
  return createHash('sha1').update(`blob ${body.length}\0`).update(body).digest('hex');
}

/** The document with `seed` written between the markers (fenced so Markdown shows it as is). */
export function replaceSeed(text: string, seed: string): string {
  const lines = text.split('\n');
  const span = locateSeed(lines);
  if ('problem' in span) return text;
  const cr = lines[span.begin].endsWith('\r') ? '\r' : '';
  return [...lines.slice(0, span.begin + 1), ...seedBlock(seed).map((l) => l + cr), ...lines.slice(span.end)].join('\n');
}

/** The SEED section's body lines: the seed prompt in a fence longer than any it contains. */
export function seedBlock(seed: string): string[] {
  const longest = Math.max(2, ...[...seed.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}text`, ...seed.replace(/\n$/, '').split('\n'), fence];
}

/** Fills the template's tool variables (`{{workItem}}`, `{{n}}`, `{{title}}`, `{{seed}}`), leaving every other placeholder for the author. */
export function renderTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{\{\s*([A-Za-z]+)\s*\}\}/g, (m, name: string) => (Object.hasOwn(vars, name) ? vars[name] : m));
}
