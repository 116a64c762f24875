/**
 * The fidelity sweep (DESIGN.md "The fidelity sweep"): gather the topic files, their times
 * and the current continuation, then let the pure planner decide. Reads only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { BARE_HANDOFF_HINT, continuationPaths, entriesOf, parseFrontMatter, planSweep, type TopicFile, type TopicPlan } from '../core/sweep.js';

export const STREAMING_DIR = 'cadence/streaming';
export const ACTIVE_FILE = 'cadence/_ACTIVE.md';

export interface SweepResult {
  topics: TopicPlan[];
  hint: string | null;
}

export async function sweep(repo: Repo, nowMs = Date.now()): Promise<SweepResult> {
  const top = repo.workTree;
  if (!top) return { topics: [], hint: null };
  const hint = isDir(join(top, '.handoff')) ? BARE_HANDOFF_HINT : null;
  const dir = join(top, STREAMING_DIR);
  if (!isDir(dir)) return { topics: [], hint };
  const names = readdirSync(dir).filter((n) => n.endsWith('.md') && isFile(join(dir, n))).sort();
  const files: TopicFile[] = [];
  for (const n of names) {
    const abs = join(dir, n);
    const text = readFileSync(abs, 'utf8');
    const fm = parseFrontMatter(text);
    if (!fm || fm.data.status !== 'active') continue;
    files.push({ path: `${STREAMING_DIR}/${n}`, text, committedAt: null, mtime: statSync(abs).mtimeMs, ...{ undated: entriesOf(fm.body).some((e) => e.time === null) } });
  }
  if (!files.length) return { topics: [], hint };
  // An undated entry takes the file's last commit time: one git call per such file.
  await Promise.all(
    files
      .filter((f) => (f as TopicFile & { undated: boolean }).undated)
      .map(async (f) => {
        const r = await repo.runGit(['log', '-1', '--format=%ct', '--', f.path], { readOnly: true });
        const t = Number(r.stdout.toString().trim());
        f.committedAt = r.code === 0 && t > 0 ? t * 1000 : null;
      }),
  );
  const activeAbs = join(top, ACTIVE_FILE);
  const activeText = existsSync(activeAbs) ? readFileSync(activeAbs, 'utf8') : null;
  const continuation = continuationPaths(activeText, await latestContinuationRefs(repo), files.map((f) => f.path));
  return { topics: planSweep(files, continuation, nowMs), hint };
}

async function latestContinuationRefs(repo: Repo): Promise<string[]> {
  try {
    const { version } = await new HandoffStore(repo).latest({ branch: repo.headBranch() });
    const refs = version?.handoff.continuation_refs;
    return Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
