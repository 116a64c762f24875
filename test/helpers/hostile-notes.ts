/**
 * A remote that sends what a malicious collaborator can write with plain git (issue 23,
 * point 7): a victim with one version of its own, a bare remote holding the same history,
 * and an attacker's clone that writes with `git fast-import` (as fast as git can write).
 */
import { expect } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from './repo.js';
import { handoff } from './cli.js';

/** The victim, with one version of its own, and a bare remote that holds the same history. */
export function victimAndRemote(): { victim: TestRepo; bare: TestRepo; attacker: TestRepo } {
  const bare = TestRepo.init({ bare: true });
  const victim = TestRepo.init();
  victim.commit('feat: start', { 'a.txt': 'a\n' });
  victim.git('remote', 'add', 'origin', bare.dir);
  expect(handoff(victim, ['write', '--summary', 'my own work']).code).toBe(0);
  victim.git('push', '-q', 'origin', 'main', 'refs/notes/handoff');
  const attacker = TestRepo.init({ branch: 'mallory' });
  attacker.git('remote', 'add', 'origin', bare.dir);
  attacker.git('fetch', '-q', 'origin', 'main:main', 'refs/notes/handoff:refs/notes/handoff');
  return { victim, bare, attacker };
}

export function fastImport(repo: TestRepo, stream: string): void {
  const r = repo.gitRaw(['fast-import', '--quiet'], { input: stream });
  expect(r.status, r.stderr).toBe(0);
}

const FUTURE = 4102444800; // 2100-01-01

/** `count` bookkeeping commits (receipts) dated from the year 2100 on, one line on top of the attacker's notes ref. */
export function futureBookkeeping(attacker: TestRepo, count: number): void {
  const tip = attacker.git('rev-parse', 'refs/notes/handoff').trim();
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const msg = `receipt ${i}\n\nHandoff-Kind: receipt\n`;
    const body = `{"n":${i}}\n`;
    let s = `commit refs/notes/handoff\ncommitter Mallory <m@example.com> ${FUTURE + i} +0000\ndata ${msg.length}\n${msg}`;
    if (i === 0) s += `from ${tip}\n`;
    parts.push(`${s}M 100644 inline receipts/r-${i % 97}.json\ndata ${body.length}\n${body}\n`);
  }
  fastImport(attacker, parts.join(''));
}

/**
 * `count` bookkeeping merges dated from the year 2100 on: each merges the previous one with a
 * receipt of its own made on the attacker's tip, so no line of single-parent commits is longer
 * than one, and the chain is `2 * count` commits (a merge with no trailer is none either).
 */
export function futureMergeChain(attacker: TestRepo, count: number): void {
  const tip = attacker.git('rev-parse', 'refs/notes/handoff').trim();
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = `receipt ${i}\n\nHandoff-Kind: receipt\n`;
    const m = i % 2 ? `merge ${i}\n` : `merge ${i}\n\nHandoff-Kind: merge\n`;
    const body = `{"n":${i}}\n`;
    parts.push(
      `commit refs/heads/side\nmark :${2 * i + 1}\ncommitter Mallory <m@example.com> ${FUTURE + 2 * i} +0000\ndata ${r.length}\n${r}from ${tip}\n` +
        `M 100644 inline receipts/s-${i % 97}.json\ndata ${body.length}\n${body}\n`,
      `commit refs/notes/handoff\nmark :${2 * i + 2}\ncommitter Mallory <m@example.com> ${FUTURE + 2 * i + 1} +0000\ndata ${m.length}\n${m}` +
        `${i === 0 ? `from ${tip}\n` : ''}merge :${2 * i + 1}\nM 100644 inline receipts/m-${i % 97}.json\ndata ${body.length}\n${body}\n`,
    );
  }
  fastImport(attacker, parts.join(''));
  attacker.git('branch', '-D', 'side');
}

/**
 * `count` commits dated from the year 2100 on, one line on top of the attacker's notes ref,
 * with no trailer of ours (plain `git commit` on the notes ref): each changes a file that is
 * no note, so only reading its trees tells that it records no version.
 */
export function futureNativeCommits(attacker: TestRepo, count: number): void {
  const tip = attacker.git('rev-parse', 'refs/notes/handoff').trim();
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const msg = `tidy ${i}\n`;
    const body = `{"n":${i}}\n`;
    let s = `commit refs/notes/handoff\ncommitter Mallory <m@example.com> ${FUTURE + i} +0000\ndata ${msg.length}\n${msg}`;
    if (i === 0) s += `from ${tip}\n`;
    parts.push(`${s}M 100644 inline receipts/n-${i % 97}.json\ndata ${body.length}\n${body}\n`);
  }
  fastImport(attacker, parts.join(''));
}

/** A copy of `repo` in a fresh folder (a reader that comes first, again). */
export function copyRepo(repo: TestRepo): TestRepo {
  const dir = join(tempDir(), 'copy');
  cpSync(repo.dir, dir, { recursive: true });
  return new TestRepo(dir, isolatedEnv());
}

export function timed<T>(f: () => T): { value: T; ms: number } {
  const t = Date.now();
  const value = f();
  return { value, ms: Date.now() - t };
}

export const claudeStart = (repo: TestRepo, session = 'sess-1') =>
  JSON.stringify({
    session_id: session,
    transcript_path: '/tmp/t.jsonl',
    cwd: repo.dir,
    permission_mode: 'default',
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
