/**
 * Pure decisions for post-rewrite (docs/hooks.md): git's list of rewritten commits
 * and which handoff a rewritten commit keeps when several old ones carried one.
 */
import { isObjectId } from './object-id.js';

/** `old new [extra]` lines -> new commit -> its old commits, in git's order. */
export function parseRewriteList(input: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of input.split('\n')) {
    const [old, neu] = line.trim().split(/\s+/);
    if (!isObjectId(old) || !isObjectId(neu)) continue;
    const list = out.get(neu) ?? [];
    if (!list.includes(old)) list.push(old);
    out.set(neu, list);
  }
  return out;
}

export interface NoteText {
  blob: string;
  text: string;
}

/** The top-level `date:` of a stored handoff (canonical YAML), as epoch ms, or null. */
export function noteDate(text: string): number | null {
  const m = /^date:[ \t]*["']?([0-9T:.+\-Z ]+?)["']?[ \t]*$/m.exec(text);
  if (!m) return null;
  const t = Date.parse(m[1]);
  return Number.isNaN(t) ? null : t;
}

/**
 * The handoff a rewritten commit keeps: the newest by its `date`; on a tie, or without
 * dates, the one git listed last (what `notes.rewriteMode=overwrite` keeps).
 */
export function newestNote(notes: NoteText[]): NoteText | null {
  let best: NoteText | null = null;
  let bestDate = -Infinity;
  for (const n of notes) {
    const d = noteDate(n.text) ?? -Infinity;
    if (best === null || d >= bestDate) {
      best = n;
      bestDate = Math.max(d, bestDate);
    }
  }
  return best;
}

/**
 * A note moved by a rewrite: written while HEAD was `head`, now attached to another commit
 * (amend and rebase copy notes through `notes.rewriteRef`). Its head and recent commits
 * still describe the old commit, so readers are told. null when it was not moved.
 */
export function movedByRewrite(h: { head?: unknown }, target: string): { from: string; to: string } | null {
  const head = h.head;
  return isObjectId(head) && head !== target ? { from: head, to: target } : null;
}

/** The one line that says so. */
export function movedLine(m: { from: string; to: string }): string {
  return `moved by a rewrite: this handoff was written at commit ${m.from.slice(0, 7)} and now sits on ${m.to.slice(0, 7)} (amend or rebase); its head and recent commits are from before the rewrite`;
}
