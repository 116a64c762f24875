/**
 * The scan before a push reads every note blob the push sends, not only the note of each
 * version as the version reader finds it (src/app/outgoing-secrets.ts): a note it cannot
 * read as a handoff (binary, over handoff.maxBytes), a notes merge commit whose tree
 * changes a note, and a tree holding one note at both fan-out depths all reach the remote
 * otherwise. Each is refused, leaves the remote without the secret, and is not recorded as
 * clean (a push to a second, empty remote is refused too).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { FakeSecrets } from '../helpers/fake-secrets.js';
import { Fleet, sync, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

const fake = new FakeSecrets(9191);

/** A clone with a clean version synced to its remote. */
function start(): { fleet: Fleet; a: FleetRepo; target: string } {
  const fleet = new Fleet(1);
  const [a] = fleet.clones;
  writeVersion(a, 'clean start');
  expect(sync(a).outgoing).toBe(1);
  return { fleet, a, target: a.head() };
}

/** A blob written into the clone's objects; its id. */
function blob(a: FleetRepo, data: Buffer | string): string {
  const file = join(tempDir('handoff-blob-'), 'blob');
  writeFileSync(file, data);
  return a.git('hash-object', '-w', file).trim();
}

/** Whether the bare repository at `dir` holds object `oid`. */
function holds(dir: string, oid: string): boolean {
  try {
    execFileSync('git', ['--git-dir', dir, 'cat-file', '-e', oid], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function remoteNotes(dir: string): string {
  return execFileSync('git', ['--git-dir', dir, 'for-each-ref', '--format=%(objectname)', 'refs/notes/handoff'], { encoding: 'utf8' }).trim();
}

let remotes = 0;
/** Syncs to `remote` and expects the refusal; then to a fresh, empty remote, refused the same way. */
function expectRefused(f: { fleet: Fleet; a: FleetRepo }, secretBlob: string, key: string): void {
  const before = remoteNotes(f.fleet.remote.dir);
  const r = handoff(f.a, ['sync', '--json', 'origin']);
  expect(r.code, r.stderr).toBe(1);
  expect(r.json.error.code).toBe('SecretDetected');
  expect(r.stderr).toContain('AWS access key AKIA');
  expect(r.stderr).not.toContain(key.slice(4));
  expect(r.stderr).toContain('was not pushed');
  expect(holds(f.fleet.remote.dir, secretBlob)).toBe(false);
  expect(remoteNotes(f.fleet.remote.dir)).toBe(before);
  // Not recorded as clean: a new remote is refused as well.
  const dir = join(tempDir('handoff-fresh-'), `r${remotes++}.git`);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  f.a.git('remote', 'add', 'fresh', dir);
  const again = handoff(f.a, ['sync', '--json', 'fresh']);
  expect(again.code, again.stderr).toBe(1);
  expect(again.json.error.code).toBe('SecretDetected');
  expect(holds(dir, secretBlob)).toBe(false);
  expect(remoteNotes(dir)).toBe('');
}

describe('the outgoing scan reads every note blob a push sends', () => {
  it('a binary note (a NUL byte) with a secret is refused', () => {
    const f = start();
    const key = fake.awsAccessKey();
    f.a.commit('feat: next', { 'n.txt': 'n\n' });
    const data = Buffer.from(`goal: x\nnote: aws key ${key}\n\0\n`);
    const file = join(tempDir('handoff-note-'), 'note');
    writeFileSync(file, data);
    f.a.git('notes', '--ref', 'handoff', 'add', '-F', file, 'HEAD');
    expectRefused(f, blob(f.a, data), key);
  });

  it('a note over handoff.maxBytes with a secret is refused', () => {
    const f = start();
    const key = fake.awsAccessKey();
    f.a.commit('feat: next', { 'n.txt': 'n\n' });
    const data = `goal: x\nnote: aws key ${key}\nrest: ${'x'.repeat(1_100_000)}\n`;
    const file = join(tempDir('handoff-note-'), 'note');
    writeFileSync(file, data);
    f.a.git('notes', '--ref', 'handoff', 'add', '-F', file, 'HEAD');
    expectRefused(f, blob(f.a, data), key);
  });

  it('a notes merge commit whose tree swaps a note for a secret is refused', () => {
    const f = start();
    const key = fake.awsAccessKey();
    f.a.commit('feat: next', { 'n.txt': 'n\n' });
    writeVersion(f.a, 'second');
    const tip = f.a.notesRef()!;
    const secret = blob(f.a, `goal: x\nnote: aws key ${key}\n`);
    // The tip's tree with the first version's note replaced by the secret, as two-parent commit.
    const entries = f.a
      .git('ls-tree', tip)
      .trim()
      .split('\n')
      .map((l) => (l.endsWith(`\t${f.target}`) ? `100644 blob ${secret}\t${f.target}` : l));
    expect(entries.join('\n')).toContain(secret);
    const tree = f.a.gitRaw(['mktree'], { input: `${entries.join('\n')}\n` }).stdout.trim();
    const merge = f.a.git('commit-tree', tree, '-p', tip, '-p', `${tip}^`, '-m', 'Notes merged by git notes').trim();
    f.a.git('update-ref', 'refs/notes/handoff', merge, tip);
    expectRefused(f, secret, key);
  });

  it('a tree holding one note at both fan-out depths, the secret at the one not read, is refused', () => {
    const f = start();
    const key = fake.awsAccessKey();
    f.a.commit('feat: next', { 'n.txt': 'n\n' });
    writeVersion(f.a, 'second');
    const tip = f.a.notesRef()!;
    const target = f.a.head();
    const clean = f.a.git('rev-parse', `${tip}:${target}`).trim();
    const secret = blob(f.a, `goal: x\nnote: aws key ${key}\n`);
    // The secret where the note is (`<target>`), a clean copy at `ab/<38 hex>`, which the reader asks first.
    const sub = f.a.gitRaw(['mktree'], { input: `100644 blob ${clean}\t${target.slice(2)}\n` }).stdout.trim();
    const entries = f.a
      .git('ls-tree', tip)
      .trim()
      .split('\n')
      .map((l) => (l.endsWith(`\t${target}`) ? `100644 blob ${secret}\t${target}` : l));
    entries.push(`040000 tree ${sub}\t${target.slice(0, 2)}`);
    const tree = f.a.gitRaw(['mktree'], { input: `${entries.join('\n')}\n` }).stdout.trim();
    // The same message as the tip (our trailers: a version of ours for that target).
    const message = f.a.git('log', '-1', '--format=%B', tip);
    const commit = f.a.gitRaw(['commit-tree', tree, '-p', tip], { input: message }).stdout.trim();
    f.a.git('update-ref', 'refs/notes/handoff', commit, tip);
    expectRefused(f, secret, key);
  });
});

describe('sync --dry-run', () => {
  it('meets the scan the push would: a history the real sync refuses is refused the same way, and nothing is pushed or recorded', () => {
    const f = start();
    const before = remoteNotes(f.fleet.remote.dir);
    // A clean history still says what it would push.
    writeVersion(f.a, 'clean again');
    const ok = handoff(f.a, ['sync', '--dry-run', '--json', 'origin']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json.outgoing).toBe(1);
    const key = fake.awsAccessKey();
    f.a.commit('feat: next', { 'n.txt': 'n\n' });
    f.a.git('notes', '--ref', 'handoff', 'add', '-m', `goal: x\nnote: aws key ${key}\n`, 'HEAD');
    const record = join(f.a.gitDir(), 'handoff', 'scanned-notes');
    const recorded = existsSync(record) ? readFileSync(record, 'utf8') : null;
    const dry = handoff(f.a, ['sync', '--dry-run', '--json', 'origin']);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.json.error.code).toBe('SecretDetected');
    expect(dry.stderr).toContain('AWS access key AKIA');
    expect(dry.stderr).not.toContain(key.slice(4));
    expect(existsSync(record) ? readFileSync(record, 'utf8') : null).toBe(recorded);
    // the same refusal as the real sync's
    const real = handoff(f.a, ['sync', '--json', 'origin']);
    expect(real.code).toBe(1);
    expect(dry.json.error).toEqual(real.json.error);
    expect(remoteNotes(f.fleet.remote.dir)).toBe(before);
  });
});
