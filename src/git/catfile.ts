import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { GitObject, ObjectType } from './objects.js';
import { GitFailed } from '../errors.js';
import { startGit } from './exec.js';

interface Pending {
  resolve: (o: GitObject | null) => void;
  reject: (e: Error) => void;
}

/**
 * One long-lived `git cat-file --batch` process: every object read of a command goes
 * through it, so a command pays for one git start-up however many objects it reads.
 */
export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private failure: Error | null = null;

  constructor(private readonly gitDir: string) {}

  read(name: string): Promise<GitObject | null> {
    if (this.failure) return Promise.reject(this.failure);
    if (/[\n\r]/.test(name)) return Promise.resolve(null);
    const child = this.start();
    if (this.queue.length === 0) this.setRef(true);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(`${name}\n`);
    });
  }

  close(): void {
    if (!this.child) return;
    this.child.stdin.end();
    this.child = null;
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = startGit(['cat-file', '--batch'], { env: { GIT_DIR: this.gitDir }, readOnly: true });
    child.stdout.on('data', (b: Buffer) => this.onData(b));
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const fail = (why: string) => {
      this.failure = new GitFailed(`git cat-file failed: ${why}`);
      for (const p of this.queue.splice(0)) p.reject(this.failure);
    };
    child.on('error', (e) => fail(e.message));
    child.on('close', (code) => {
      if (this.queue.length) fail(stderr.trim() || `exit ${code}`);
    });
    child.stdin.on('error', () => {});
    this.child = child;
    this.setRef(false);
    return child;
  }

  /** The process keeps Node alive only while a read is pending, so an idle reader never blocks exit. */
  private setRef(on: boolean): void {
    const c = this.child;
    if (!c) return;
    for (const h of [c, c.stdout, c.stderr, c.stdin] as unknown as { ref?: () => void; unref?: () => void }[]) {
      if (on) h.ref?.();
      else h.unref?.();
    }
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const nl = this.buf.indexOf(0x0a);
      if (nl < 0) return;
      const header = this.buf.toString('utf8', 0, nl);
      const parts = header.split(' ');
      if (parts.length === 2 && (parts[1] === 'missing' || parts[1] === 'ambiguous')) {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift()?.resolve(null);
        if (this.queue.length === 0) this.setRef(false);
        continue;
      }
      const size = Number(parts[2]);
      if (this.buf.length < nl + 1 + size + 1) return;
      const data = Buffer.from(this.buf.subarray(nl + 1, nl + 1 + size));
      this.buf = this.buf.subarray(nl + 1 + size + 1);
      this.queue.shift()?.resolve({ type: parts[1] as ObjectType, data });
      if (this.queue.length === 0) this.setRef(false);
    }
  }
}
