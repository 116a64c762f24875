/**
 * The bookmark `show` prints at session start: 15-30 lines, cursor first (README.md "Everyday use";
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

const MAX_LINES = 30;
const MAX_ITEMS = 5;

function oneLine(s: string, width = 160): string {
  const flat = s.replace(/\s*\n\s*/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
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
  const out: string[] = [...view.notices.map((n) => paint.warn(n)), paint.heading(head.join(' · '))];
  if (h.summary?.trim())
    out.push(
      ...h.summary
        .trim()
        .split('\n')
        .slice(0, 3)
        .map((l) => oneLine(l)),
    );
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
  if (out.length > MAX_LINES) {
    const cut = out.length - MAX_LINES + 1;
    return `${[...out.slice(0, MAX_LINES - 1), paint.dim(`… ${cut} more lines: git handoff show --json`)].join('\n')}\n`;
  }
  return `${out.join('\n')}\n`;
}

/** Whole days between a version's date and now. */
export function ageInDays(dateIso: string, nowMs: number): number {
  const t = Date.parse(dateIso);
  return Number.isNaN(t) ? 0 : Math.max(0, Math.floor((nowMs - t) / 86_400_000));
}
