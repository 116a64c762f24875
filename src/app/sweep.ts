/**
 * The fidelity sweep (docs/sweep.md): gather the topic files, their times
 * and the current continuation, then let the pure planner decide. Reads only.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { NOTES_REF, type Repo } from '../git/repo.js';
import { BARE_HANDOFF_HINT, CONSOLIDATED_STEP, continuationPaths, coveredTopics, planSweep, type TopicFile, type TopicPlan } from '../core/sweep.js';
import type { LatestCadence } from './continuation-refs.js';
import { scanActiveTopic } from '../core/sweep-scan.js';
import { requireWorkTree } from './repository.js';
import { readWorkTreeFileOrNull } from '../state/bounded-file.js';

export const STREAMING_DIR = 'cadence/streaming';
export const ACTIVE_FILE = 'cadence/_ACTIVE.md';

/** A missing path is an answer here, not an error (an exception costs more than the stat). */
const NO_THROW = { throwIfNoEntry: false } as const;

/** One options object for thousands of reads (a string option is copied into a new object each time). */
const UTF8 = { encoding: 'utf8' } as const;

export interface SweepResult {
  topics: TopicPlan[];
  hint: string | null;
}

/**
 * The sweep's plan. `continuationRefs` reads the latest handoff's continuation_refs
 * (continuation-refs.ts); it is asked only once there is a handoff, so a caller can load
 * the handoff store lazily.
 */
export async function sweep(repo: Repo, continuationRefs: (repo: Repo) => Promise<LatestCadence>, nowMs = Date.now()): Promise<SweepResult> {
  const top = repo.workTree;
  if (!top) return { topics: [], hint: null };
  const hint = isDir(join(top, '.handoff')) ? BARE_HANDOFF_HINT : null;
  const dir = join(top, STREAMING_DIR);
  if (!isDir(dir)) return { topics: [], hint };
  const names: string[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    // (`dir` is absolute and normal already: path.join would only normalise it again)
    if (d.name.endsWith('.md') && (d.isFile() || (d.isSymbolicLink() && isFile(`${dir}/${d.name}`)))) names.push(d.name);
  }
  // In the plan's order already (by path), so the plan's sort finds nothing to do.
  names.sort();
  if (names.length >= MANY_FILES) withoutOptimizingCompiler();
  const files: TopicFile[] = [];
  const undated: TopicFile[] = [];
  const pathPrefix = `${STREAMING_DIR}/`;
  readEach(dir, names, (name, text) => {
    const summary = scanActiveTopic(text);
    if (!summary) return;
    const f: TopicFile = { path: pathPrefix + name, text: '', summary, committedAt: null, mtime: null };
    files.push(f);
    if (summary.undated > 0) undated.push(f);
  });
  if (!files.length) return { topics: [], hint };
  // An undated entry takes the file's last commit time, else its mtime.
  const times = await lastCommitTimes(
    repo,
    undated.map((f) => f.path),
  );
  for (const f of undated) {
    f.committedAt = times.get(f.path) ?? null;
    if (f.committedAt === null) f.mtime = statSync(join(top, f.path)).mtimeMs;
  }
  const activeAbs = join(top, ACTIVE_FILE);
  const activeText = existsSync(activeAbs) ? (readWorkTreeFileOrNull(top, ACTIVE_FILE)?.toString('utf8') ?? null) : null;
  const latest: LatestCadence = (await repo.resolveRef(NOTES_REF)) ? await continuationRefs(repo) : { refs: [], produced: [], date: null };
  const refs = latest.refs;
  const continuation =
    activeText || refs.length
      ? continuationPaths(
          activeText,
          refs,
          files.map((f) => f.path),
        )
      : new Set<string>();
  const covered =
    latest.produced.length && latest.date !== null
      ? coveredTopics(
          files.map((f) => f.path),
          latest.produced,
          latest.date,
          readProduced(top, latest.produced),
        )
      : undefined;
  return { topics: planSweep(files, continuation, nowMs, covered), hint };
}

/**
 * `sweep`: the plan for this work tree (a bare repository is refused), with the step that
 * follows once a topic is due (`then`; null when none is).
 */
export async function sweepWorkTree(repo: Repo, continuationRefs: (repo: Repo) => Promise<LatestCadence>): Promise<SweepResult & { then: string | null }> {
  requireWorkTree(repo, 'sweep');
  const r = await sweep(repo, continuationRefs);
  return { ...r, then: r.topics.some((t) => t.action === 'consolidate') ? CONSOLIDATED_STEP : null };
}

/** The text of each produced document still in the work tree (its first 64 KiB: enough to name a topic). */
function readProduced(top: string, produced: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of produced) {
    if (isAbsolute(p) || p.split(/[\\/]/).includes('..')) continue;
    // unreadable, outside the work tree or no regular file: it covers by its name only
    const bytes = readWorkTreeFileOrNull(top, p);
    if (bytes !== null) out.set(p, bytes.subarray(0, 65536).toString('utf8'));
  }
  return out;
}

/**
 * Reads each file `names` names in `dir` (as UTF-8) and hands it to `each`, from inside
 * `dir`: the kernel resolves a bare name with one lookup where an absolute path costs one
 * per component, ~0.75 us a file here (2,000 files: 10.6 -> 9.0 ms). The working directory
 * is back where it was before anything else runs (the loop is synchronous), error or not;
 * without a working directory to come back to, the paths are absolute.
 */
export function readEach(dir: string, names: string[], each: (name: string, text: string) => void): void {
  let back: string | null = null;
  try {
    back = process.cwd();
    process.chdir(dir);
  } catch {
    back = null;
  }
  // readFileSync with an encoding is one call into Node's C++ (open, read, close there):
  // cheaper here than openSync/readSync/closeSync into a shared buffer.
  try {
    const prefix = back === null ? `${dir}/` : '';
    for (const name of names) each(name, readFileSync(prefix + name, UTF8));
  } finally {
    if (back !== null) process.chdir(back);
  }
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

/**
 * TurboFan takes up the scanner after some 250 files (--trace-opt); with fewer there is
 * nothing for it to compile, and loading node:v8 would be pure cost.
 */
const MANY_FILES = 300;

/**
 * Runs the rest of this short-lived process on V8's interpreter and baseline code only.
 * Thousands of topic files make the scanner hot, and TurboFan then spends 15-25 ms of CPU
 * compiling it (measured with --trace-opt: 2,000 files), while the whole scan takes ~5 ms:
 * on two cores shared with other work that CPU comes out of the sweep's own time (2,000
 * files: ~13 ms more under load, ~2 ms on an idle machine; loading node:v8 costs ~1.3 ms).
 */
function withoutOptimizingCompiler(): void {
  process.getBuiltinModule('node:v8').setFlagsFromString('--max-opt=1');
}

function isDir(p: string): boolean {
  try {
    return statSync(p, NO_THROW)?.isDirectory() ?? false;
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
