/**
 * What the outgoing secret scan's record of clean notes (src/app/outgoing-secrets.ts)
 * asks of git: the commits of `tip ^not`, walked as the bulk version reader
 * (./version-stream.ts) walks them, and whether a version's tree holds its note in one
 * place only.
 */
import type { Repo } from './repo.js';
import { start } from '../process/run.js';
import { GitFailed } from '../errors.js';

/** The commits of `tip` and none of `not`: the very walk of the bulk reader's `git log` (no replace refs). */
export async function rangeCommits(repo: Repo, tip: string, not: (string | null)[]): Promise<string[]> {
  const out = await repo.git(['--no-replace-objects', 'rev-list', tip, ...not.filter(Boolean).map((n) => `^${n}`), '--'], { readOnly: true });
  return out.split('\n').filter(Boolean);
}

/** The same, or null when git cannot say (a commit in `not` this repository does not have). */
export async function tryRangeCommits(repo: Repo, tip: string, not: (string | null)[]): Promise<string[] | null> {
  const r = await repo.runGit(['--no-replace-objects', 'rev-list', tip, ...not.filter(Boolean).map((n) => `^${n}`), '--'], { readOnly: true });
  return r.code === 0 ? r.stdout.toString('latin1').split('\n').filter(Boolean) : null;
}

/**
 * Which versions hold their note at exactly one of the two paths the bulk reader asks for
 * (`<target>` and `ab/<38 hex>`), as a blob, with nothing at the other: for those the
 * reader reads that blob whatever depth it asks first. A tree holding one note at both
 * depths, or a tree or submodule entry where a note belongs (neither git nor this tool
 * writes one), is read differently depending on what was read before it: such a version
 * is not one whose reading can be recorded. One `git cat-file --batch-check`, fed as the
 * versions come, so git answers while the scan runs.
 */
/** Versions asked of git in one write. */
const BATCH = 256;

export class SingleNoteCheck {
  private child: ReturnType<typeof start> | null = null;
  private readonly asked: string[] = [];
  private pending: string[] = [];
  private out: Buffer[] = [];
  private failure: Error | null = null;
  private closed: Promise<number> | null = null;

  constructor(private readonly repo: Repo) {}

  add(version: string, target: string): void {
    this.asked.push(version);
    this.pending.push(`${version}:${target.slice(0, 2)}/${target.slice(2)}\n${version}:${target}\n`);
    // In batches: a write to the pipe per version cost ~25 us each (~125 ms for 5,000).
    if (this.pending.length >= BATCH) this.flush();
  }

  private flush(): void {
    if (!this.pending.length) return;
    (this.child ?? this.begin()).stdin.write(this.pending.join(''));
    this.pending = [];
  }

  /** The versions asked about whose note is in one place; throws when git failed. */
  async single(): Promise<Set<string>> {
    const yes = new Set<string>();
    this.flush();
    if (!this.child) return yes;
    this.child.stdin.end();
    const code = await this.closed;
    if (this.failure) throw this.failure;
    if (code !== 0) throw new GitFailed(`git cat-file --batch-check failed: exit ${code}`);
    const lines = Buffer.concat(this.out).toString('latin1').split('\n');
    if (lines.length !== this.asked.length * 2 + 1) throw new GitFailed('git cat-file --batch-check answered a different number of lines than it was asked');
    this.asked.forEach((id, i) => {
      const found = [lines[2 * i], lines[2 * i + 1]].map((l) => l.slice(l.indexOf(' ') + 1));
      const blobs = found.filter((t) => t === 'blob').length;
      const absent = found.filter((t) => t === 'missing').length;
      if (blobs === 1 && absent === 1) yes.add(id);
    });
    return yes;
  }

  /** Stops git without an answer (the scan ended early). */
  abandon(): void {
    if (this.child && this.child.exitCode === null) this.child.kill();
  }

  private begin(): ReturnType<typeof start> {
    // the objects the push sends, not what a `git replace` shows in their place
    const child = this.repo.startReadOnlyGit(['cat-file', '--batch-check=%(objecttype)'], { realObjects: true });
    child.stdout.on('data', (b: Buffer) => this.out.push(b));
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => {
      child.on('error', (e) => {
        this.failure = new GitFailed(`git cat-file failed: ${e.message}`);
        resolve(128);
      });
      child.on('close', (code) => {
        if (code !== 0 && !this.failure) this.failure = new GitFailed(`git cat-file --batch-check failed: ${err.trim() || `exit ${code}`}`);
        resolve(code ?? 128);
      });
    });
    this.child = child;
    return child;
  }
}
