/**
 * The fidelity sweep (DESIGN.md "The fidelity sweep"): gather the topic files, their times
 * and the current continuation, then let the pure planner decide. Reads only.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { BARE_HANDOFF_HINT, continuationPaths, planSweep, type TopicFile, type TopicPlan } from '../core/sweep.js';
import { scanActiveTopic } from '../core/sweep-scan.js';

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
  const files: TopicFile[] = [];
  const undated: TopicFile[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const name = d.name;
    if (!name.endsWith('.md')) continue;
    // (`dir` is absolute and normal already: path.join would only normalise it again)
    const abs = `${dir}/${name}`;
    if (!(d.isFile() || (d.isSymbolicLink() && isFile(abs)))) continue;
    const summary = scanActiveTopic(readSmall(abs));
    if (!summary) continue;
    const f: TopicFile = { path: `${STREAMING_DIR}/${name}`, text: '', summary, committedAt: null, mtime: null };
    files.push(f);
    if (summary.undated > 0) undated.push(f);
  }
  if (!files.length) return { topics: [], hint };
  // An undated entry takes the file's last commit time, else its mtime.
  const times = await lastCommitTimes(repo, undated.map((f) => f.path));
  for (const f of undated) {
    f.committedAt = times.get(f.path) ?? null;
    if (f.committedAt === null) f.mtime = statSync(join(top, f.path)).mtimeMs;
  }
  const activeAbs = join(top, ACTIVE_FILE);
  const activeText = existsSync(activeAbs) ? readFileSync(activeAbs, 'utf8') : null;
  const continuation = continuationPaths(activeText, await latestContinuationRefs(repo), files.map((f) => f.path));
  return { topics: planSweep(files, continuation, nowMs), hint };
}

/** Last commit time (ms) of each path: one `git log` per path for a few, one walk over the folder for many. */
async function lastCommitTimes(repo: Repo, paths: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!paths.length) return out;
  if (paths.length <= 4) {
    await Promise.all(
      paths.map(async (p) => {
        const r = await repo.runGit(['log', '-1', '--format=%ct', '--', p], { readOnly: true });
        const t = Number(r.stdout.toString().trim());
        if (r.code === 0 && t > 0) out.set(p, t * 1000);
      }),
    );
    return out;
  }
  const want = new Set(paths);
  const r = await repo.runGit(['log', '--format=%x00%ct', '--name-only', '--no-renames', '--', STREAMING_DIR], { readOnly: true });
  if (r.code !== 0) return out;
  let t = 0;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    if (line.startsWith('\0')) t = Number(line.slice(1)) * 1000;
    else if (line && want.has(line) && !out.has(line)) out.set(line, t);
  }
  return out;
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

const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/**
 * A topic file's text. Thousands are read on a commit that sweeps, so they share one buffer
 * (open, read, close) instead of allocating one each; a larger file is read whole.
 */
function readSmall(abs: string): string {
  const fd = openSync(abs, 'r');
  try {
    const n = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, 0);
    if (n < READ_BUFFER.length) return READ_BUFFER.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
  return readFileSync(abs, 'utf8');
}
