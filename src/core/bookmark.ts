/**
 * The bookmark `show` prints at session start: 15-30 lines, cursor first (README.md "What the next session sees";
 * the cadence method's words: "a short bookmark: the cursor, canonical pointers, soft context").
 * Pure: a view in, lines out; colour is applied by the caller's painter.
 */
import type { Handoff } from './schema.js';
import { findUnknownFields } from './unknown-fields.js';
import { visibleDeep } from './visible-text.js';

export interface BookmarkView {
  version: string;
  target: string;
  date: string;
  handoff: Handoff;
  /** lines shown before the content (stale, due, fallback, skipped versions) */
  notices: string[];
}

export interface Painter {
  heading(s: string): string;
  dim(s: string): string;
  warn(s: string): string;
}

export const plainPainter: Painter = { heading: (s) => s, dim: (s) => s, warn: (s) => s };

/** DESIGN.md: "within 30 lines plus at most 5 notice lines": the content, notices aside. */
const MAX_LINES = 30;
/**
 * DESIGN.md: "an agent's session-start context under 2 KB". The whole bookmark, notices
 * included, in UTF-8 bytes; the session-start hook's own framing takes the rest.
 */
export const BOOKMARK_MAX_BYTES = 1400;
/** The summary is the one field every reader needs whole: up to this much it is never cut. */
const SUMMARY_MAX_BYTES = 700;
const SUMMARY_MAX_LINES = 8;
const MAX_ITEMS = 5;
const SEE_ALL = 'git handoff show --json';
/** DESIGN.md: "at most 5 notice lines"; the fifth says how many more and where they are. */
const MAX_NOTICES = 5;
export const SEE_NOTICES = 'git handoff show --notices';

const SKIPPED = 'warning: skipped version ';

/**
 * The notice lines a bookmark shows: all of them up to five, else four and one naming the
 * rest and the command that prints every one. The lines about the shown version (stale,
 * due, diverged, ...) go before the skipped-version warnings, which are the first hidden.
 */
export function cappedNotices(notices: string[]): string[] {
  if (notices.length <= MAX_NOTICES) return notices;
  const room = MAX_NOTICES - 1;
  const others = notices.filter((l) => !l.startsWith(SKIPPED)).slice(0, room);
  let skipped = room - others.length;
  const kept = notices.filter((l) => (l.startsWith(SKIPPED) ? skipped-- > 0 : others.includes(l)));
  return [...kept, `… ${notices.length - kept.length} more notices: ${SEE_NOTICES}`];
}

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;

/** The longest prefix of `s` (whole code points) that fits in `max` UTF-8 bytes. */
function prefixWithin(s: string, max: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const n = utf8Length(ch);
    if (bytes + n > max) break;
    bytes += n;
    end += ch.length;
  }
  return s.slice(0, end);
}

/** A value on one line; a long one is cut at a word, never inside one. */
function oneLine(s: string, width = 160): string {
  const flat = s.replace(/\s*\n\s*/g, ' ').trim();
  if (flat.length <= width) return flat;
  const head = flat.slice(0, width - 1);
  const space = head.lastIndexOf(' ');
  return `${space > width / 2 ? head.slice(0, space) : head}…`;
}

/**
 * The summary's lines, whole when it fits; otherwise cut after the last sentence (or line)
 * that fits, with one more line saying how much is left and where to read it.
 */
function summaryLines(summary: string): string[] {
  const lines = summary
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const whole = lines.join('\n');
  if (lines.length <= SUMMARY_MAX_LINES && utf8Length(whole) <= SUMMARY_MAX_BYTES) return lines;
  const room = prefixWithin(lines.slice(0, SUMMARY_MAX_LINES).join('\n'), SUMMARY_MAX_BYTES);
  let cut = -1;
  for (const m of room.matchAll(/[.!?。！？](?=\s|$)|\n/g)) cut = m[0] === '\n' ? m.index : m.index + m[0].length;
  let shown: string;
  if (cut > room.length / 3) shown = room.slice(0, cut);
  else {
    // one long sentence: cut at a word
    const space = room.lastIndexOf(' ');
    shown = `${space > room.length / 2 ? room.slice(0, space) : room}…`;
  }
  const rest = [...whole].length - [...shown.replace(/…$/, '')].length;
  return [...shown.split('\n').map((l) => l.trim()), `(the summary goes on for ${rest} more characters: ${SEE_ALL})`];
}

function list(items: string[] | undefined, bullet = '-'): string[] {
  const xs = (items ?? []).filter((x) => x.trim() !== '');
  const shown = xs.slice(0, MAX_ITEMS).map((x) => `  ${bullet} ${oneLine(x)}`);
  if (xs.length > MAX_ITEMS) shown.push(`  … ${xs.length - MAX_ITEMS} more`);
  return shown;
}

export function renderBookmark(shownView: BookmarkView, paint: Painter = plainPainter): string {
  // What a note, a branch name or a notice holds is shown, never acted on by a terminal or an agent.
  const view = visibleDeep(shownView);
  const h = view.handoff;
  const head = [
    `handoff ${view.version.slice(0, 12)}`,
    h.branch ? `on ${h.branch}` : h.branch === null ? 'detached' : null,
    `at ${view.target.slice(0, 7)}`,
    view.date.replace('T', ' ').replace('Z', ' UTC'),
    h.status,
    h.session_id ? `session ${h.session_id}` : null,
  ].filter(Boolean);
  const out: string[] = [paint.heading(head.join(' · '))];
  if (h.summary?.trim()) {
    const lines = summaryLines(h.summary);
    const cut = lines.length > 0 && lines[lines.length - 1].endsWith(`${SEE_ALL})`);
    out.push(...(cut ? [...lines.slice(0, -1), paint.dim(lines[lines.length - 1])] : lines));
  }
  const kept = out.length;
  // Nothing written is invisible: a misspelled `sumary` would otherwise look empty.
  const unknown = findUnknownFields(h as Record<string, unknown>).filter((u) => u.hasContent);
  if (unknown.length)
    out.push(paint.warn(oneLine(`unknown fields (not part of the schema, shown by 'show --json'): ${unknown.map((u) => u.path).join(', ')}`)));

  const sections: [string, string[]][] = [];
  const c = h.cursor ?? {};
  const cursor: string[] = [];
  if (c.last_discussed) cursor.push(`  last discussed: ${oneLine(c.last_discussed)}`);
  (c.pending_questions ?? []).forEach((q, i) => cursor.push(`  pending ${i + 1}: ${oneLine(q)}`));
  if (c.next_step) cursor.push(`  next step: ${oneLine(c.next_step)}`);
  if (h.mid_task?.slug) cursor.push(`  left mid-task: ${h.mid_task.slug}${h.mid_task.where_stopped ? ` (${oneLine(h.mid_task.where_stopped)})` : ''}`);
  sections.push(['Cursor', cursor]);

  const soft: string[] = [];
  if (h.soft_context?.tone) soft.push(`  tone: ${oneLine(h.soft_context.tone)}`);
  soft.push(...list(h.soft_context?.notes));
  sections.push(['Soft context', soft]);
  sections.push(["Guards (don't)", list(h.guards)]);
  sections.push([
    'Open tracks',
    list(
      (h.open_tracks ?? []).map((t) => [t.name, t.readiness ? `[${t.readiness}]` : '', t.entry_point ? `→ ${t.entry_point}` : ''].filter(Boolean).join(' ')),
    ),
  ]);
  sections.push(['Ask the user', list(h.ask_user)]);
  sections.push(['Read next', list(h.continuation_refs)]);
  sections.push(['Recent commits', list(h.recent_commits)]);

  for (const [title, lines] of sections) {
    if (!lines.length) continue;
    out.push(paint.heading(title), ...lines);
  }
  const notices = cappedNotices(view.notices).map((n) => paint.warn(n));
  return `${[...notices, ...withinBudget(out, kept, utf8Length(notices.join('\n')), paint)].join('\n')}\n`;
}

/**
 * The content lines that fit in 30 lines and in what the notices leave of the byte budget,
 * the last one naming the command that shows the rest. The heading and the summary always stay.
 */
function withinBudget(lines: string[], kept: number, noticeBytes: number, paint: Painter): string[] {
  const room = BOOKMARK_MAX_BYTES - noticeBytes;
  const size = (xs: string[]) => utf8Length(xs.join('\n')) + 1;
  if (lines.length <= MAX_LINES && size(lines) <= room) return lines;
  const more = (n: number) => paint.dim(`… ${n} more lines: ${SEE_ALL}`);
  let keep = Math.min(lines.length, MAX_LINES - 1);
  while (keep > kept && size([...lines.slice(0, keep), more(lines.length - keep)]) > room) keep--;
  return [...lines.slice(0, keep), more(lines.length - keep)];
}

/** Whole days between a version's date and now. */
export function ageInDays(dateIso: string, nowMs: number): number {
  const t = Date.parse(dateIso);
  return Number.isNaN(t) ? 0 : Math.max(0, Math.floor((nowMs - t) / 86_400_000));
}
