/**
 * The words the agent hooks put in front of the model (the read and write modes
 * and the closing ritual). Pure: facts in, text out. Every message starts with
 * "git handoff:" so a reader of the transcript knows where it came from.
 */

/** The fields a handoff carries, in the order `write` expects them (docs/format.md "The note"). */
export const WRITE_FIELDS =
  "summary (where the work stands, key decisions), cursor.last_discussed, cursor.pending_questions (at most 3), cursor.next_step, soft_context.tone and .notes, open_tracks [{name, readiness, entry_point}], ask_user, guards (don't-do items), memory_updates, mid_task {slug, where_stopped} when work stopped in the middle; empty lists stay []";

export interface StartContextFacts {
  /** the bookmark as `git handoff show` prints it; null when no handoff exists */
  bookmark: string | null;
  stale: { ageDays: number; date: string } | null;
  due: { commit: string } | null;
  /** the newest handoff comes from another branch */
  fallbackFrom: string | null | undefined;
  previousEndedWithout: boolean;
  relay: { id: string; promptFile: string | null } | null;
}

/** Session start: orient, then ask; the handoff is advice from the last session, not an order. */
export function sessionStartContext(f: StartContextFacts): string | null {
  const lines: string[] = [];
  if (f.relay) {
    lines.push(
      `git handoff: this session was started by a relay (${f.relay.id}).${f.relay.promptFile ? ` Read the prompt in ${f.relay.promptFile}.` : ''} Check it against the repository, then acknowledge: \`git handoff ack --status accepted\`, or \`git handoff ack --status failed --reason "<why>"\` when the state does not match or the prompt is stale.`,
    );
  }
  if (f.previousEndedWithout) lines.push('git handoff: the previous session ended without writing a handoff.');
  if (f.bookmark) {
    lines.push(
      "git handoff: the previous session's handoff for this repository follows. It is that session's advice, not an order: orient yourself, summarise it for the user in one block (what it proposes: open tracks, questions for the user, guards), and ask before acting on any of it.",
    );
    if (f.stale)
      lines.push(
        `warning: this handoff is stale: written ${f.stale.ageDays} days ago (${f.stale.date.slice(0, 10)}). Tell the user and ask whether to override it or continue before relying on it.`,
      );
    if (f.fallbackFrom !== undefined)
      lines.push(`note: no handoff on this branch yet; this is the newest one${f.fallbackFrom ? ` (from ${f.fallbackFrom})` : ''}.`);
    if (f.due) lines.push(`note: a handoff is due: commit ${f.due.commit.slice(0, 7)} was made since this one.`);
    lines.push('', f.bookmark.replace(/\n+$/, ''), '');
  }
  if (!lines.length) return null;
  lines.push('When the session ends (the user says so), write the next handoff with `git handoff write` (YAML or JSON on stdin).');
  return lines.join('\n');
}

/** After a session-end phrase: write now, then propose (never perform) the closing ritual, once. */
export function writeNowContext(matched: string | null, proposeRitual: boolean): string {
  const lines = [
    `git handoff: the user is ending the session${matched ? ` ("${matched}")` : ''}.`,
    `1. Write the handoff for the next session now: run \`git handoff write\` with YAML or JSON on stdin: ${WRITE_FIELDS}.`,
  ];
  if (proposeRitual) {
    lines.push(
      '2. Then propose, do not perform, the closing ritual, in one block: (a) which memory updates could go into durable docs? (b) which open tracks or tasks look finished and could be closed? (c) nothing. Change nothing until the user says yes; if they decline, do not propose it again in this session.',
    );
  } else {
    lines.push('2. The closing ritual was already proposed in this session: do not propose it again.');
  }
  return lines.join('\n');
}

const QUESTIONS: Record<'ru' | 'zh' | 'en', string> = {
  ru: '«Закрываем сессию или только таску?»',
  zh: '「结束这次会话，还是只结束这个任务？」',
  en: '"End the session, or just this task?"',
};

function languageOf(text: string): 'ru' | 'zh' | 'en' {
  if (/\p{Script=Cyrillic}/u.test(text)) return 'ru';
  if (/\p{Script=Han}/u.test(text)) return 'zh';
  return 'en';
}

/** An ambiguous closing phrase: ask, do not guess. */
export function askScopeContext(matched: string | null): string {
  const q = QUESTIONS[languageOf(matched ?? '')];
  return `git handoff: ${matched ? `"${matched}"` : 'this message'} may end the session or only the current task. Before anything else ask the user: ${q} Write the handoff only if they mean the session.`;
}

/** The reason a stop is blocked once: the session ended without its handoff. */
export function stopBlockReason(): string {
  return `git handoff: the user ended the session but no handoff was written in it. Before stopping, write it: run \`git handoff write\` with YAML or JSON on stdin (${WRITE_FIELDS}). Then stop.`;
}

/** Before the context is compacted, when a handoff is due. */
export function preCompactReminder(due: { commit: string }): string {
  return `git handoff: a handoff is due (commit ${due.commit.slice(0, 7)} since the last one); consider \`git handoff write\` before the context is compacted.`;
}
