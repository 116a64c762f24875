/**
 * Private and team handoffs (issue 26, docs/privacy.md): three users of one remote, two
 * with an age identity (ada, bob) and one without (carol). Each one's show and log hold
 * exactly what they may read; the remote's bytes hold none of the encrypted text.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

/** A user of the clone: their own config folder (the identity) and git identity. */
function as(repo: FleetRepo, name: string): { repo: FleetRepo; config: string } {
  const config = tempDir(`handoff-xdg-${name}-`);
  Object.assign(repo.env, {
    XDG_CONFIG_HOME: config,
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@example.com`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@example.com`,
  });
  return { repo, config };
}

const identity = (config: string) => join(config, 'git-handoff', 'identity.txt');
const newKey = (repo: FleetRepo): string => {
  const r = handoff(repo, ['key', 'new']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};
const sync = (repo: FleetRepo) => {
  const r = handoff(repo, ['sync', '--json', 'origin']);
  expect(r.code, r.stderr).toBe(0);
};
const write = (repo: FleetRepo, summary: string, ...flags: string[]) => {
  const r = handoff(repo, ['write', '--json', '--summary', summary, ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return r.json.version as string;
};
/** Every object of a repository, as git stores it decompressed. */
function allObjectText(repo: FleetRepo): string {
  const ids = repo.git('cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n').filter(Boolean);
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo.dir, env: repo.env, input: ids.join('\n') + '\n' }).toString('latin1');
}

describe('keys', () => {
  it('key new makes a 0600 identity once, says what losing it costs; key show prints its public key; an identity others may read is refused', () => {
    const fleet = new Fleet(1);
    const { repo, config } = as(fleet.clones[0], 'ada');
    expect(handoff(repo, ['key', 'show']).code).toBe(1);
    const r = handoff(repo, ['key', 'new']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^age1[0-9a-z]{58}$/);
    expect(r.stderr).toMatch(/can never be read again/);
    expect(statSync(identity(config)).mode & 0o777).toBe(0o600);
    const before = readFileSync(identity(config), 'utf8');
    const again = handoff(repo, ['key', 'new']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    expect(readFileSync(identity(config), 'utf8')).toBe(before);
    expect(handoff(repo, ['key', 'show']).stdout).toBe(r.stdout);
    chmodSync(identity(config), 0o644);
    const loose = handoff(repo, ['key', 'show']);
    expect(loose.code).toBe(1);
    expect(loose.stderr.trim().split('\n')).toHaveLength(1);
    expect(loose.stderr).toMatch(/chmod 600/);
    // a reader refuses it too, once it meets an encrypted note
    chmodSync(identity(config), 0o600);
    write(repo, 'PRIVATE-ONE', '--private');
    chmodSync(identity(config), 0o640);
    expect(handoff(repo, ['show']).code).toBe(1);
  });

  it('the secret scanner refuses an age secret key anywhere, private or shared', () => {
    const fleet = new Fleet(1);
    const { repo } = as(fleet.clones[0], 'ada');
    newKey(repo);
    const secret = readFileSync(identity(repo.env.XDG_CONFIG_HOME!), 'utf8').match(/AGE-SECRET-KEY-1\S+/)![0];
    for (const flags of [[], ['--private']]) {
      const r = handoff(repo, ['write', '--summary', `my key is ${secret}`, ...flags]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/age secret key/);
    }
    expect(repo.notesRef()).toBeNull();
  });
});

describe('three users, one remote', () => {
  it('each reads exactly what they may; the remote holds none of the private or team text', () => {
    const fleet = new Fleet(3);
    const ada = as(fleet.clones[0], 'ada').repo;
    const bob = as(fleet.clones[1], 'bob').repo;
    const carol = as(fleet.clones[2], 'carol').repo;
    const adaKey = newKey(ada);
    const bobKey = newKey(bob);

    // no recipients file at HEAD: a team write is refused in one line, nothing written
    const none = handoff(ada, ['write', '--team', '--summary', 'x']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/\.handoff-recipients/);
    expect(ada.notesRef()).toBeNull();
    ada.commit('recipients', { '.handoff-recipients': `# the team\n${adaKey} # ada\n${bobKey} # bob\n` });
    ada.git('push', '-q', 'origin', 'main');

    write(ada, 'SHARED-MARK one');
    const team = write(ada, 'TEAM-MARK plan', '--team');
    const adaPrivate = write(ada, 'ADA-PRIVATE-MARK doubts', '--private');
    const subject = ada.git('log', '-1', '--format=%s%n%b', adaPrivate);
    expect(subject).toMatch(/: \(encrypted\)\n/);
    expect(subject).toMatch(/Handoff-Visibility: private/);
    expect(subject).not.toMatch(/MARK/);
    sync(ada);

    bob.git('pull', '-q', 'origin', 'main');
    sync(bob);
    // ada's private version is the head bob cannot read: a patch onto it is refused, a whole document continues it
    expect(handoff(bob, ['write', '--private', '--summary', 'BOB-PRIVATE-MARK']).code).toBe(1);
    const bobWrite = handoff(bob, ['write', '--json', '--private'], { input: 'summary: BOB-PRIVATE-MARK\n' });
    expect(bobWrite.code, bobWrite.stderr).toBe(0);
    const bobPrivate = bobWrite.json.version as string;
    sync(bob);
    sync(ada);
    carol.git('pull', '-q', 'origin', 'main');
    sync(carol);

    const remote = allObjectText(fleet.remote);
    expect(remote).toMatch(/SHARED-MARK/);
    for (const m of ['TEAM-MARK', 'ADA-PRIVATE-MARK', 'BOB-PRIVATE-MARK']) expect(remote).not.toContain(m);

    const logOf = (repo: FleetRepo) => {
      const r = handoff(repo, ['log', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return r.json.versions.map((v: any) => [v.summary, v.visibility, v.readable]);
    };
    expect(logOf(ada)).toEqual([
      [null, 'private', false],
      ['ADA-PRIVATE-MARK doubts', 'private', true],
      ['TEAM-MARK plan', 'team', true],
      ['SHARED-MARK one', 'shared', true],
    ]);
    expect(logOf(bob)).toEqual([
      ['BOB-PRIVATE-MARK', 'private', true],
      [null, 'private', false],
      ['TEAM-MARK plan', 'team', true],
      ['SHARED-MARK one', 'shared', true],
    ]);
    expect(logOf(carol)).toEqual([
      [null, 'private', false],
      [null, 'private', false],
      [null, 'team', false],
      ['SHARED-MARK one', 'shared', true],
    ]);

    // show: the newest version each may read, and one line for the newer ones they may not
    const showOf = (repo: FleetRepo) => handoff(repo, ['show']);
    const a = showOf(ada);
    expect(a.stdout).toContain('ADA-PRIVATE-MARK');
    expect(a.stdout + a.stderr).toMatch(new RegExp(`version ${bobPrivate.slice(0, 12)}: encrypted for 1 reader, not you; written by bob on main at \\d{4}-`));
    const c = showOf(carol);
    expect(c.code).toBe(0);
    expect(c.stdout).toContain('SHARED-MARK');
    for (const m of ['TEAM-MARK', 'PRIVATE-MARK']) expect(c.stdout + c.stderr).not.toContain(m);
    expect(c.stdout + c.stderr).toMatch(new RegExp(`version ${team.slice(0, 12)}: encrypted for 2 readers, not you; written by ada on main`));
    const cj = handoff(carol, ['show', '--json']).json;
    expect(cj).toMatchObject({ visibility: 'shared', readable: true, handoff: { summary: 'SHARED-MARK one' } });
    expect(handoff(bob, ['show', '--json']).json).toMatchObject({ visibility: 'private', readable: true, handoff: { summary: 'BOB-PRIVATE-MARK' } });
    // no plaintext of an encrypted version outside the objects it was written to: none anywhere in carol's clone
    const carolFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? carolFiles(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : []));
    for (const f of carolFiles(carol.dir)) expect(readFileSync(f, 'latin1'), f).not.toMatch(/TEAM-MARK|PRIVATE-MARK/);
  });

  it('a tampered ciphertext is an invalid version with a one-line reason; the rest still reads', () => {
    const fleet = new Fleet(1);
    const { repo } = as(fleet.clones[0], 'ada');
    newKey(repo);
    write(repo, 'SHARED-BEFORE');
    repo.commit('next');
    write(repo, 'SECRET-PLAN', '--private');
    const armored = repo.nativeNote()!;
    const lines = armored.split('\n');
    const i = lines.length - 3; // a line of the payload
    lines[i] = lines[i].slice(0, 4) + (lines[i][4] === 'A' ? 'B' : 'A') + lines[i].slice(5);
    repo.commit('third');
    repo.gitRaw(['notes', '--ref=handoff', 'add', '-f', '-F', '-'], { input: lines.join('\n') });
    const log = handoff(repo, ['log', '--json']);
    expect(log.code, log.stderr).toBe(0);
    expect(log.json.versions[0]).toMatchObject({ valid: false, readable: false });
    const text = handoff(repo, ['log']).stdout.split('\n')[0];
    expect(text).toMatch(/encrypted note cannot be read/);
    const show = handoff(repo, ['show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('SECRET-PLAN');
  });
});

const hasAge = spawnSync('age', ['--version']).status === 0 && spawnSync('age-keygen', ['--version']).status === 0;

describe(hasAge ? 'the real age program (Debian age)' : 'the real age program: skipped, age and age-keygen are not installed (apt-get install age)', () => {
  it.skipIf(!hasAge)('age --decrypt -i reads our note as it is; a note made by age -r -a with an age-keygen identity is read by us', () => {
    const fleet = new Fleet(1);
    const { repo, config } = as(fleet.clones[0], 'ada');
    newKey(repo);
    write(repo, 'OURS-FOR-AGE', '--private');
    const ours = spawnSync('age', ['--decrypt', '-i', identity(config)], { input: repo.nativeNote()!, encoding: 'utf8' });
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toMatch(/^schema: 1\n/);
    expect(ours.stdout).toContain('summary: OURS-FOR-AGE');

    // theirs: an identity made by age-keygen (handoff.identity), a note made by age itself
    const keygenFile = join(tempDir('handoff-age-keygen-'), 'key.txt');
    expect(spawnSync('age-keygen', ['-o', keygenFile]).status).toBe(0);
    chmodSync(keygenFile, 0o600);
    const pub = spawnSync('age-keygen', ['-y', keygenFile], { encoding: 'utf8' }).stdout.trim();
    repo.git('config', 'handoff.identity', keygenFile);
    expect(handoff(repo, ['key', 'show']).stdout.trim()).toBe(pub);
    repo.commit('theirs');
    const plain = `schema: 1\nstatus: active\nsummary: MADE-BY-AGE\nbranch: main\n`;
    const armored = spawnSync('age', ['-r', pub, '-a'], { input: plain, encoding: 'utf8' });
    expect(armored.status, armored.stderr).toBe(0);
    expect(repo.gitRaw(['notes', '--ref=handoff', 'add', '-f', '-F', '-'], { input: armored.stdout }).status).toBe(0);
    const shown = handoff(repo, ['show', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json).toMatchObject({ readable: true, visibility: 'team', handoff: { summary: 'MADE-BY-AGE' } });
  });
});
