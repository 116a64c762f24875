/**
 * Reads the task board for mid-task capture: `handoff.statusFile` (relative to the top of
 * the work tree) or `.tasks/STATUS.md`. No file, an unreadable one, or no active task:
 * null, and the write goes on without it ("записать handoff без mid-task
 * секции, не блокировать").
 */
import { isAbsolute } from 'node:path';
import type { Repo } from '../git/repo.js';
import { activeTaskAt, labelForeignTask, type MidTask } from '../core/mid-task.js';
import { lineAuthor } from '../git/blame.js';
import { resolveIdentities } from '../git/identity.js';
import { readRegularFile, readWorkTreeFile } from '../state/bounded-file.js';

export const DEFAULT_STATUS_FILE = '.tasks/STATUS.md';
const MAX_STATUS_BYTES = 1 << 20;

export interface BoardRead {
  /** whether a status file exists at all */
  exists: boolean;
  task: MidTask | null;
}

export async function readTaskBoard(repo: Repo): Promise<BoardRead> {
  const top = repo.paths.workTree;
  if (!top) return { exists: false, task: null };
  const configured = await repo.configGet('handoff.statusFile');
  const rel = configured?.trim() || DEFAULT_STATUS_FILE;
  // An absolute path is the user's own setting; a relative one is the work tree's, and stays inside it.
  let bytes: Buffer | null;
  try {
    bytes = isAbsolute(rel) ? readRegularFile(rel, rel, MAX_STATUS_BYTES) : readWorkTreeFile(top, rel, MAX_STATUS_BYTES);
  } catch {
    bytes = null;
  }
  if (bytes === null) return { exists: false, task: null };
  const found = activeTaskAt(bytes.toString('utf8'));
  if (!found) return { exists: true, task: null };
  // A line of a tracked board that someone else committed is their words: labelled so.
  if (isAbsolute(rel)) return { exists: true, task: found.task };
  const author = await lineAuthor(repo, rel, found.line);
  if (!author) return { exists: true, task: found.task };
  const me = (await resolveIdentities(repo)).author;
  const mine = author.email.toLowerCase() === me.email.toLowerCase();
  return { exists: true, task: mine ? found.task : labelForeignTask(found.task, rel, author) };
}
