/**
 * Mid-task capture (docs/handoff.md "Mid-task capture", `mid_task`): the task marked active with a
 * red circle (🔴) in `.tasks/STATUS.md` becomes `mid_task: {slug, where_stopped}`. Pure.
 *
 * Accepted shapes of the active line (the first one outside code fences wins):
 *   - 🔴 `parser-quoting` — stopped at the escape table
 *   - 🔴 **parser-quoting**: stopped at the escape table
 *   | 🔴 | parser-quoting | stopped at the escape table |
 *   ### 🔴 parser-quoting
 * and, in the lines under it, `where_stopped:` (or `stopped:`, `где остановились:`,
 * `остановились:`, `停在:`) gives where_stopped explicitly. A legend line that lists the
 * other markers too (🔴 active · 🟡 paused · 🟢 done) is not a task.
 */
export interface MidTask {
  slug: string;
  where_stopped: string;
}

const ACTIVE = '🔴';
const OTHER_MARKERS = /[🟡🟢🟠🔵⚪⚫✅]/u;
const WHERE = /^\s*(?:[-*+]\s+)?(?:\*\*|_)?(where[_ ]stopped|stopped|где остановились|остановились|остановился|停在|停止于)(?:\*\*|_)?\s*[:：]\s*(.+)$/is;
const SEPARATOR = /\s+[—–-]\s+|\s*:\s+|\s*：\s*|\s*[—–]\s*/;

function unwrap(s: string): string {
  return s
    .trim()
    .replace(/^(`+|\*\*|__|\*|_)(.+?)\1$/s, '$2')
    .trim();
}

/** The active task and the line (1-based) that marks it: whose line it is can then be asked of git. */
export function activeTaskAt(markdown: string): { task: MidTask; line: number } | null {
  // Lines as git counts them (the line number is asked of git blame): CRLF ends one, a bare
  // CR is text of its line, kept (and shown as ^M, visible-text.ts), never a break that drops
  // what follows it or shifts the line asked about onto another author's line.
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1][0];
      else if (f[1][0] === fence) fence = null;
      continue;
    }
    if (fence !== null || !line.includes(ACTIVE) || OTHER_MARKERS.test(line)) continue;
    const found = line.trim().startsWith('|') ? fromRow(line) : fromLine(line);
    if (!found) continue;
    // An explicit where_stopped under the item, up to the next item or heading.
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j];
      if (/^\s*#/.test(next) || next.includes(ACTIVE) || OTHER_MARKERS.test(next) || /^[-*+|]/.test(next)) break;
      const m = WHERE.exec(next);
      if (m) {
        found.where_stopped = unwrap(m[2]);
        break;
      }
    }
    return { task: found, line: i + 1 };
  }
  return null;
}

function fromRow(line: string): MidTask | null {
  const cells = line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.replace(ACTIVE, '').trim())
    .filter(Boolean);
  if (!cells.length || /^:?-+:?$/.test(cells[0])) return null;
  return { slug: unwrap(cells[0]), where_stopped: cells.slice(1).map(unwrap).join('; ') };
}

function fromLine(line: string): MidTask | null {
  let rest = line.slice(line.indexOf(ACTIVE) + ACTIVE.length).replace(/^[\s:：—–-]+/, '');
  // `- [ ] 🔴 ...` and `### 🔴 ...` leave nothing before the marker that matters.
  rest = rest.replace(/^\[[ xX]\]\s*/, '');
  if (!rest) return null;
  let slug: string;
  let where: string;
  const quoted = /^(`+|\*\*|__)(.+?)\1\s*(.*)$/s.exec(rest);
  if (quoted) {
    slug = quoted[2].trim();
    where = quoted[3];
  } else {
    const sep = SEPARATOR.exec(rest);
    if (sep) {
      slug = rest.slice(0, sep.index);
      where = rest.slice(sep.index + sep[0].length);
    } else {
      const m = /^(\S+)\s*(.*)$/s.exec(rest)!;
      slug = m[1];
      where = m[2];
    }
  }
  slug = unwrap(slug).replace(/[:,;.]+$/, '');
  where = unwrap(where.replace(/^[\s:：—–-]+/, ''));
  return slug ? { slug, where_stopped: where } : null;
}

/**
 * A task captured from a line someone else committed is labelled in `where_stopped` with its
 * file and author: it reaches the next session as that person's words, not the user's.
 */
export function labelForeignTask(task: MidTask, file: string, author: { name: string; email: string; commit: string }): MidTask {
  const by = `${author.name} <${author.email}>`;
  const label = `[from ${file}, a line committed by ${by} in ${author.commit.slice(0, 7)}, not by the current user]`;
  return { ...task, where_stopped: task.where_stopped ? `${task.where_stopped} ${label}` : label };
}
