/**
 * What `show` says beside the bookmark: its JSON document (the MCP tool gives the same one),
 * the notices a reader must see before trusting what it shows, and the bookmark itself with
 * those notices first. `git handoff show`, MCP's `handoff_show` and the agents'
 * session-start hook all take them from here, so a person and an agent are told the same.
 */
import type { ShowResult } from './show.js';
import { movedByRewrite, movedLine } from '../core/rewrite.js';
import { plainPainter, renderBookmark, type Painter } from '../core/bookmark.js';
import { foreignPreface, provenanceJson } from '../core/provenance.js';
import { heldBeyond, type HeldField } from '../core/lineage.js';
import type { ReadVersion } from '../git/handoff-store.js';

/** What `show --json` says of a head beside the shown one: who wrote it, where, what it holds that the shown one does not. */
function divergedJson(shown: ReadVersion, d: ReadVersion) {
  return {
    version: d.id,
    target: d.target,
    date: typeof d.handoff.date === 'string' ? d.handoff.date : new Date(d.timestamp * 1000).toISOString(),
    session_id: typeof d.handoff.session_id === 'string' ? d.handoff.session_id : null,
    holds: heldBeyond(shown.handoff, d.handoff),
  };
}

/** `diverged` as `show --json` gives it, for another reader's JSON (sync's). */
export function divergedList(latest: ReadVersion, diverged: ReadVersion[]) {
  return diverged.map((d) => divergedJson(latest, d));
}

const HELD_NAMES: Record<HeldField, string> = { ask_user: 'ask_user', pending_questions: 'pending question', guards: 'guard', notes: 'note' };

export function showJson(r: ShowResult) {
  if (!r.version) return { ok: true, handoff: null, due: false };
  return {
    ok: true,
    version: r.version.id,
    target: r.version.target,
    date: r.date,
    ...(r.provenance ? provenanceJson(r.provenance) : {}),
    stale: r.stale,
    age_days: r.ageDays,
    due: r.due !== null,
    due_reason: r.due,
    continues: r.version.continues ?? [],
    diverged: r.diverged?.length ? r.diverged.map((d) => divergedJson(r.version!, d)) : false,
    visibility: r.version.visibility,
    readable: r.version.readable,
    handoff: r.version.handoff,
  };
}

/** One line each: what a reader must know before trusting the bookmark. */
export function notices(r: ShowResult): string[] {
  const out: string[] = [];
  // Whose words these are comes first: everything below is that person's text.
  const foreign = r.provenance ? foreignPreface(r.provenance) : null;
  if (foreign) out.push(foreign);
  for (const s of r.skipped)
    out.push(
      s.sealed ? `version ${s.id.slice(0, 12)}: ${s.problems[0]}` : `warning: skipped version ${s.id.slice(0, 12)}: not a valid handoff (${s.problems[0]})`,
    );
  if (r.fallback && r.version) {
    const where = r.currentBranch ? `branch ${r.currentBranch}` : 'this detached HEAD';
    out.push(`no handoff on ${where} yet; showing the newest one${r.version.branch ? ` (from ${r.version.branch})` : ''}`);
  }
  if (r.version && r.diverged?.length) {
    out.push(...divergenceLines(r.version, r.diverged));
  }
  if (r.version && r.noteCopies) out.push(copiesLine(r.version.target, r.noteCopies));
  const moved = r.version ? movedByRewrite(r.version.handoff, r.version.target) : null;
  if (moved) out.push(movedLine(moved));
  if (r.stale) out.push(`warning: this handoff is stale: written ${r.ageDays} days ago (${r.date!.slice(0, 10)}); confirm with the user before acting on it`);
  if (r.remoteAhead) {
    const n = r.remoteAhead.versions;
    out.push(`${r.remoteAhead.remote} has ${n} handoff version${n === 1 ? '' : 's'} this clone lacks; run 'git handoff sync ${r.remoteAhead.remote}'`);
  }
  if (r.freshCloneRemote) {
    const rem = r.freshCloneRemote;
    out.push(
      `no handoff in this clone yet: handoffs travel separately from the code (git clone and fetch do not bring refs/notes/handoff); get them with 'git handoff sync ${rem}'`,
    );
  }
  if (r.due) out.push(`a handoff is due: commit ${r.due.commit.slice(0, 7)} was made since this one; run 'git handoff write'`);
  return out;
}

/** The one line for a note stored more than once (doctor says the same). */
export function copiesLine(target: string, paths: string[]): string {
  const where = paths.map((p) => (p.includes('/') ? `under ${p.slice(0, p.lastIndexOf('/') + 1)}` : 'at the root'));
  const times = paths.length === 2 ? 'twice' : `${paths.length} times`;
  return `the note of ${target.slice(0, 7)} is stored ${times} in refs/notes/handoff (${where.join(' and ')}); 'git notes show' prints each, this is the first; 'git handoff doctor --fix' keeps it and removes the other${paths.length > 2 ? 's' : ''}`;
}

/**
 * What a person at a terminal is told when there is no handoff yet (DESIGN.md, `show`: "a
 * terminal gets one stderr line naming the command that writes the first"); scripts and
 * hooks get nothing.
 */
export const FIRST_RUN_LINE = "no handoff yet; write the first with: git handoff write --summary '<where the work stands>' (or YAML on stdin)";

/**
 * The bookmark `show` prints on stdout, notices first; null when there is no version to
 * show (then `show` prints the notices alone, on stderr).
 */
export function bookmarkText(r: ShowResult, paint: Painter = plainPainter): string | null {
  if (!r.version) return null;
  return renderBookmark({ version: r.version.id, target: r.version.target, date: r.date!, handoff: r.version.handoff, notices: notices(r) }, paint);
}

/**
 * The lines a divergence gets, one per other head (show's notices, and what sync, doctor, the
 * post-commit reminder and the agents' prompt hook say): `self` names the latest as the
 * reader speaks of it ('this one' beside its bookmark, else 'the latest, version X').
 */
export function divergenceLines(latest: ReadVersion, diverged: ReadVersion[], self = 'this one'): string[] {
  const ids = [latest, ...diverged].map((v) => v.id.slice(0, 12)).join(',');
  return diverged.map((d) => divergedLine(latest, d, ids, self));
}

/** The lines of a divergence that a reader reports beside its own answer (sync, doctor, the pre-push and prompt hooks): each other head against the latest. */
export function divergenceReport(d: { latest: ReadVersion; diverged: ReadVersion[] }): string[] {
  return divergenceLines(d.latest, d.diverged, `the latest, version ${d.latest.id.slice(0, 12)}`);
}

/** The write that joins the latest and the heads beside it. */
export function joinCommand(latest: ReadVersion, diverged: ReadVersion[]): string {
  return `git handoff write --continue ${[latest, ...diverged].map((v) => v.id.slice(0, 12)).join(',')}`;
}

/** The one line a divergence gets: the other head, its session and commit, what it holds that the shown one does not, and the write that joins them. */
function divergedLine(shown: ReadVersion, d: ReadVersion, ids: string, self: string): string {
  const j = divergedJson(shown, d);
  const session = (v: ReadVersion) => (typeof v.handoff.session_id === 'string' ? `session ${v.handoff.session_id.slice(0, 40)}, ` : '');
  const held = (Object.entries(j.holds) as [HeldField, string[]][]).map(
    ([f, items]) =>
      `${items.length} ${HELD_NAMES[f]}${items.length === 1 || f === 'ask_user' ? '' : 's'} (${items.map((x) => `'${x.length > 40 ? `${x.slice(0, 39)}…` : x}'`).join(', ')})`,
  );
  return (
    `two sessions diverged: version ${d.id.slice(0, 12)} (${session(d)}on ${d.target.slice(0, 7)}, ${j.date}) and ${self} (${session(shown)}on ${shown.target.slice(0, 7)}): ` +
    `neither continues the other${held.length ? `; it holds what ${self === 'this one' ? 'this one' : 'the latest'} does not: ${held.join('; ')}` : ''}; join them with 'git handoff write --continue ${ids}'`
  );
}
