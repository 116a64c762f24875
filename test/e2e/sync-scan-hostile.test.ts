/**
 * The outgoing secret scan against a clone arranged to fool it: a `git replace` that shows
 * the scanner a clean note where the push sends the real one, and a FIFO where its record of
 * clean notes (src/state/scanned-notes.ts) belongs. Each push must still be refused, at
 * once, with nothing on the remote.
 */
import { describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { FakeSecrets } from '../helpers/fake-secrets.js';
import { Fleet, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

const fake = new FakeSecrets(977);

/** A clone whose history holds a version with an AWS key, written while the allow list accepted it (the list is then emptied). */
function withSecret(): { a: FleetRepo; secret: string; record: string } {
  const [a] = new Fleet(1).clones;
  writeVersion(a, 'clean start');
  const key = fake.awsAccessKey();
  a.git('config', 'handoff.secrets.allow', `^${key}$`);
  a.commit('feat: more', { 'b.txt': 'b\n' });
  const secret = writeVersion(a, `the docs key ${key}`);
  a.commit('feat: after', { 'c.txt': 'c\n' });
  writeVersion(a, 'after it');
  a.git('config', '--unset-all', 'handoff.secrets.allow');
  return { a, secret, record: join(a.gitDir(), 'handoff', 'scanned-notes') };
}

/** The note blob a version commit added (its one changed path). */
const noteBlob = (a: FleetRepo, version: string) => a.git('diff-tree', '-r', '--no-commit-id', `${version}^`, version).trim().split(/\s+/)[3];

let remotes = 0;
/** `git handoff sync` to a new empty remote, bounded in time (a hang is a failure, not a stuck test). */
function toEmpty(a: FleetRepo): { code: number | null; signal: string | null; json: any; stderr: string; tip: string | null } {
  const dir = join(tempDir('handoff-hostile-'), `r${remotes++}.git`);
  execFileSync('git', ['init', '-q', '--bare', dir], { env: a.env });
  a.gitRaw(['remote', 'remove', 'fresh']);
  a.git('remote', 'add', 'fresh', dir);
  const r = spawnSync('git', ['handoff', 'sync', '--json', 'fresh'], { cwd: a.dir, env: { ...a.tick(), PATH: cliPath() }, encoding: 'utf8', timeout: 20_000 });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  const tip = execFileSync('git', ['for-each-ref', '--format=%(objectname)', 'refs/notes/handoff'], { cwd: dir, encoding: 'utf8' }).trim() || null;
  return { code: r.status, signal: r.signal, json, stderr: r.stderr, tip };
}

describe('the outgoing secret scan in a hostile clone', () => {
  it('reads the note the push sends, not the clean one a git replace shows in its place, and records nothing for it', () => {
    const { a, secret, record } = withSecret();
    const clean = noteBlob(a, a.notesRef()!);
    a.git('replace', noteBlob(a, secret), clean);
    rmSync(record, { force: true });
    const r = toEmpty(a);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.error.code).toBe('SecretDetected');
    expect(r.json.error.data.version).toBe(secret);
    expect(r.tip).toBeNull();
    // The replace gone, no record written under it vouches for the version either.
    a.git('replace', '-d', noteBlob(a, secret));
    const again = toEmpty(a);
    expect(again.code, again.stderr).toBe(1);
    expect(again.tip).toBeNull();
    let text = '';
    try {
      text = readFileSync(record, 'utf8');
    } catch {}
    expect(text).not.toContain(secret);
  });

  it('a FIFO where the record belongs is no record: the push is judged at once', () => {
    const { a, secret, record } = withSecret();
    rmSync(record, { force: true });
    mkdirSync(dirname(record), { recursive: true });
    execFileSync('mkfifo', [record]);
    const r = toEmpty(a);
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.error.data.version).toBe(secret);
    expect(r.tip).toBeNull();
  });
});
