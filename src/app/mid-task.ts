/**
 * Reads the task board for mid-task capture: `handoff.statusFile` (relative to the top of
 * the work tree) or `.tasks/STATUS.md`. No file, an unreadable one, or no active task:
 * null, and the write goes on without it ("записать handoff без mid-task
 * секции, не блокировать").
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { activeTask, type MidTask } from '../core/mid-task.js';

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
  const file = isAbsolute(rel) ? rel : join(top, rel);
  try {
    const st = statSync(file);
    if (!st.isFile() || st.size > MAX_STATUS_BYTES) return { exists: false, task: null };
    return { exists: true, task: activeTask(readFileSync(file, 'utf8')) };
  } catch {
    return { exists: false, task: null };
  }
}
