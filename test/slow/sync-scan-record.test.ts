/**
 * The record of clean notes the outgoing secret scan keeps (src/state/scanned-notes.ts):
 * a later push skips what it lists, so every way a record could be wrong must make the
 * push scan again. The secret used throughout is a version of ours written while the allow
 * list accepted its key: once that pattern is gone, it is a secret the scan must find.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { FakeSecrets } from '../helpers/fake-secrets.js';
import { Fleet, sync, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';
import { recordText } from '../../src/state/scanned-notes.js';

const fake = new FakeSecrets(4242);

interface Setup {
  fleet: Fleet;
  a: FleetRepo;
  key: string;
  secret: string;
  record: string;
  build: string;
}

/** A clone whose history holds a version with an AWS key, synced (and so recorded) while the allow list accepted it; the allow list is then emptied. */
function setup(): Setup {
  const fleet = new Fleet(1);
  const [a] = fleet.clones;
  writeVersion(a, 'clean start');
  const key = fake.awsAccessKey();
  a.git('config', 'handoff.secrets.allow', `^${key}$`);
  a.commit('feat: more', { 'b.txt': 'b\n' });
  const secret = writeVersion(a, `the docs key ${key}`);
  a.commit('feat: after', { 'c.txt': 'c\n' });
  writeVersion(a, 'after it');
  expect(sync(a).outgoing).toBe(3);
  const record = join(a.gitDir(), 'handoff', 'scanned-notes');
  const text = readFileSync(record, 'utf8');
  const build = /^build ([0-9a-f]{64})$/m.exec(text)![1];
  a.git('config', '--unset-all', 'handoff.secrets.allow');
  return { fleet, a, key, secret, record, build };
}

let remotes = 0;
/** Syncs `repo` to a new, empty remote; with the remote's notes tip after it (null: nothing arrived). */
function fresh(repo: FleetRepo): { code: number; stderr: string; json: any; tip: string | null } {
  const dir = join(tempDir('handoff-fresh-'), `r${remotes++}.git`);
  execFileSync('git', ['init', '-q', '--bare', dir], { env: repo.env });
  repo.gitRaw(['remote', 'remove', 'fresh']);
  repo.git('remote', 'add', 'fresh', dir);
  const r = handoff(repo, ['sync', '--json', 'fresh']);
  const tip = execFileSync('git', ['for-each-ref', '--format=%(objectname)', 'refs/notes/handoff'], { cwd: dir, encoding: 'utf8' }).trim() || null;
  return { code: r.code, stderr: r.stderr, json: r.json, tip };
}

/** A record that, were it believed, would let every commit of the history go unread. */
function forged(s: Setup, opts: { build?: string; allow?: string[]; reach?: boolean } = {}): string {
  const commits = s.a.git('rev-list', 'refs/notes/handoff').trim().split('\n');
  return recordText({ build: opts.build ?? s.build, allow: opts.allow ?? [] }, commits, opts.reach ? commits[0] : null);
}

function expectRefused(s: Setup, r: { code: number; json: any; tip: string | null }): void {
  expect(r.code).toBe(1);
  expect(r.json.error.code).toBe('SecretDetected');
  expect(r.json.error.data.version).toBe(s.secret);
  expect(r.tip).toBeNull();
}

describe('the record of clean notes', () => {
  it('lists every commit of a history scanned clean, mode 0600, and a change of allow list scans again', () => {
    const s = setup();
    const commits = s.a.git('rev-list', 'refs/notes/handoff').trim().split('\n');
    const text = readFileSync(s.record, 'utf8');
    expect(new Set(text.trim().split('\n').slice(4, -1))).toEqual(new Set(commits));
    expect(statSync(s.record).mode & 0o777).toBe(0o600);
    // Under the old allow list the secret version was clean; under today's it is not.
    const r = fresh(s.a);
    expectRefused(s, r);
    expect(r.stderr).toContain('AWS access key AKIA');
    expect(r.stderr).not.toContain(s.key.slice(4));
    // Back under the allow list it was recorded with, the record is believed again.
    s.a.git('config', 'handoff.secrets.allow', `^${s.key}$`);
    const ok = fresh(s.a);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.tip).toBe(s.a.notesRef());
    // uninstall takes the record away with the rest of the tool
    expect(handoff(s.a, ['uninstall']).code).toBe(0);
    expect(existsSync(s.record)).toBe(false);
  });

  it('a record made by another build is not believed (the same record from this build is)', () => {
    const s = setup();
    writeFileSync(s.record, forged(s, { build: 'f'.repeat(64) }), { mode: 0o600 });
    expectRefused(s, fresh(s.a));
    writeFileSync(s.record, forged(s, { build: 'f'.repeat(64), reach: true }), { mode: 0o600 });
    expectRefused(s, fresh(s.a));
    writeFileSync(s.record, forged(s, { allow: ['.'] }), { mode: 0o600 });
    expectRefused(s, fresh(s.a));
    // The control: the forged record under this build and today's allow list is believed,
    // which is what the two refusals above were refusing.
    writeFileSync(s.record, forged(s), { mode: 0o600 });
    const r = fresh(s.a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.tip).toBe(s.a.notesRef());
  });

  it('a damaged or foreign record is not believed', () => {
    const s = setup();
    const good = forged(s);
    const lines = good.split('\n');
    const oidLine = 4;
    const flip = (c: string) => (c === '0' ? '1' : '0');
    // (every kind of damage is in test/unit/scanned-notes.test.ts; these go through a push)
    const damaged: [string, string][] = [
      ['a flipped digit', [...lines.slice(0, oidLine), flip(lines[oidLine][0]) + lines[oidLine].slice(1), ...lines.slice(oidLine + 1)].join('\n')],
      ['its last byte cut', good.slice(0, -1)],
      ['JSON', JSON.stringify({ clean: lines.slice(4, -2) })],
    ];
    for (const [what, text] of damaged) {
      writeFileSync(s.record, text, { mode: 0o600 });
      const r = fresh(s.a);
      expect(r.code, what).toBe(1);
      expect(r.json.error.data.version, what).toBe(s.secret);
      expect(r.tip, what).toBeNull();
    }
  });

  it('a record others may write, reached through a link, or owned by another user is not believed', () => {
    const s = setup();
    const good = forged(s);
    for (const mode of [0o666, 0o620, 0o602]) {
      rmSync(s.record, { force: true });
      writeFileSync(s.record, good);
      chmodSync(s.record, mode);
      expectRefused(s, fresh(s.a));
    }
    rmSync(s.record);
    const elsewhere = join(tempDir(), 'record');
    writeFileSync(elsewhere, good, { mode: 0o600 });
    symlinkSync(elsewhere, s.record);
    expectRefused(s, fresh(s.a));
    rmSync(s.record);
    if (process.getuid?.() === 0) {
      writeFileSync(s.record, good, { mode: 0o600 });
      chownSync(s.record, 65534, 65534);
      expectRefused(s, fresh(s.a));
    }
  });

  it('with a record, a push refuses and accepts what the full scan does (a secret added after it, native or ours)', () => {
    const s = setup();
    s.a.git('config', 'handoff.secrets.allow', `^${s.key}$`);
    const first = fresh(s.a);
    expect(first.code, first.stderr).toBe(0);
    const recorded = readFileSync(s.record, 'utf8');
    // (a push to an empty remote leaves the record reaching the tip: later pushes ask only about what came after it)
    expect(recorded.split('\n')[3]).toBe(`reach ${s.a.notesRef()}`);
    // Both ways, then the same again after more history: with the record, and without one.
    const both = () => {
      writeFileSync(s.record, recorded, { mode: 0o600 });
      const withRecord = fresh(s.a);
      rmSync(s.record);
      const without = fresh(s.a);
      expect(withRecord.code).toBe(without.code);
      expect(withRecord.json.error?.message).toBe(without.json.error?.message);
      expect(withRecord.tip === null).toBe(without.tip === null);
      return without;
    };
    expect(both().code).toBe(0);
    // A version of ours with a second key, written while the allow list took every key.
    const key2 = fake.awsAccessKey();
    s.a.git('config', '--add', 'handoff.secrets.allow', `^${key2}$`);
    s.a.commit('feat: later', { 'd.txt': 'd\n' });
    const ours = writeVersion(s.a, `another key ${key2}`);
    s.a.git('config', '--unset', 'handoff.secrets.allow', `\\^${key2}\\$`);
    const r = both();
    expect(r.code).toBe(1);
    expect(r.json.error.data.version).toBe(ours);
    // A note written by hand (no trailers: the store reads it), newer than that version.
    const pw = fake.password();
    s.a.commit('feat: by hand', { 'e.txt': 'e\n' });
    s.a.git('notes', '--ref', 'handoff', 'add', '-f', '-m', `status: active\nsummary: |\n  DB_PASSWORD=${pw}\n`, 'HEAD');
    const n = both();
    expect(n.code).toBe(1);
    expect(n.json.error.data.version).toBe(s.a.notesRef());
    expect(existsSync(s.record)).toBe(false);
  });

  it('a version whose tree holds its note at both depths is not recorded (its reading depends on what came before)', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    writeVersion(a, 'clean start');
    const target = a.head();
    const blob = (text: string) => a.gitRaw(['hash-object', '-w', '--stdin'], { input: text }).stdout.trim();
    const inner = a.gitRaw(['mktree'], { input: `100644 blob ${blob('status: active\nsummary: one\n')}\t${target.slice(2)}\n` }).stdout.trim();
    const base = a.git('rev-parse', 'refs/notes/handoff^{tree}').trim();
    const entries = a
      .git('ls-tree', base)
      .split('\n')
      .filter((l) => l && !l.endsWith(`\t${target}`) && !l.endsWith(`\t${target.slice(0, 2)}`));
    entries.push(`100644 blob ${blob('status: active\nsummary: two\n')}\t${target}`, `040000 tree ${inner}\t${target.slice(0, 2)}`);
    const tree = a.gitRaw(['mktree'], { input: `${entries.join('\n')}\n` }).stdout.trim();
    const parent = a.notesRef()!;
    const message = `handoff: by hand\n\nHandoff-Kind: version\nHandoff-Target: ${target}\n`;
    const both = a.gitRaw(['commit-tree', tree, '-p', parent, '-m', message]).stdout.trim();
    a.git('update-ref', 'refs/notes/handoff', both, parent);
    const r = fresh(a);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(join(a.gitDir(), 'handoff', 'scanned-notes'), 'utf8')
      .trim()
      .split('\n');
    const listed = lines.slice(4, -1);
    expect(listed).toContain(parent);
    expect(listed).not.toContain(both);
    // and so the record reaches nothing: a later push asks about every commit again
    expect(lines[3]).toBe('reach -');
  });
});
