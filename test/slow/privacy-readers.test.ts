/**
 * Who may read a team handoff, when the list changes (issue 26, docs/privacy.md): a change
 * to `.handoff-recipients` that arrives with a pull or a checkout takes effect for team
 * writes only once the user accepts it; a write says who was added or removed since the
 * previous team version, in which commit, by whom; a removed reader is told plainly what
 * they can still read. A patch write onto a head the writer cannot read is refused.
 */
import { describe, expect, it } from 'vitest';
import { Fleet, type FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';
import { gitWithHooks } from '../helpers/hooks.js';

function as(repo: FleetRepo, name: string): FleetRepo {
  Object.assign(repo.env, {
    XDG_CONFIG_HOME: tempDir(`handoff-xdg-${name}-`),
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@example.com`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@example.com`,
  });
  return repo;
}
const newKey = (repo: FleetRepo): string => {
  const r = handoff(repo, ['key', 'new']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
};
const write = (repo: FleetRepo, summary: string, ...flags: string[]) => {
  const r = handoff(repo, ['write', '--json', '--summary', summary, ...flags]);
  expect(r.code, r.stderr).toBe(0);
  return r;
};
/** A whole document (stdin): it continues even a head the writer cannot read. */
const writeDoc = (repo: FleetRepo, summary: string, ...flags: string[]) => {
  const r = handoff(repo, ['write', '--json', ...flags], { input: `summary: ${summary}\n` });
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const sync = (repo: FleetRepo) => expect(handoff(repo, ['sync', '--json', 'origin']).code).toBe(0);

describe('a change to .handoff-recipients', () => {
  it('that arrives with a pull is used only once accepted; each write names who was added or removed, where and by whom', () => {
    const fleet = new Fleet(2);
    const ada = as(fleet.clones[0], 'ada');
    const bob = as(fleet.clones[1], 'bob');
    const adaKey = newKey(ada);
    const bobKey = newKey(bob);

    // ada's own commit of the list is in effect at once (she made it here)
    ada.commit('readers: ada', { '.handoff-recipients': `${adaKey} # ada\n` });
    const first = writeDoc(ada, 'TEAM-ONE', '--team');
    expect(first.json.visibility).toBe('team');
    ada.git('push', '-q', 'origin', 'main');
    sync(ada);

    // bob adds himself; his own commit, so in effect, and the write says what changed since ada's team version
    bob.git('pull', '-q', 'origin', 'main');
    sync(bob);
    const added = bob.commit('readers: bob too', { '.handoff-recipients': `${adaKey} # ada\n${bobKey} # bob\n` });
    const two = writeDoc(bob, 'TEAM-TWO', '--team');
    expect(two.stderr).toMatch(
      new RegExp(`readers of team handoffs changed since version ${first.json.version.slice(0, 12)}: added bob \\(${bobKey.slice(0, 12)}`),
    );
    expect(two.stderr).toMatch(new RegExp(`in ${added.slice(0, 7)}[0-9a-f]* by bob`));
    bob.git('push', '-q', 'origin', 'main');
    sync(bob);

    // ada pulls bob's change: a team write is refused (one line, exit 1, nothing written, dry run too) until she accepts it
    ada.git('pull', '-q', 'origin', 'main');
    sync(ada);
    const tip = ada.notesRef();
    for (const extra of [[], ['--dry-run']]) {
      const r = handoff(ada, ['write', '--team', ...extra], { input: 'summary: TEAM-THREE\n' });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/\.handoff-recipients changed in [0-9a-f]{7,} by bob, which arrived with a pull, merge or checkout/);
      expect(r.stderr).toMatch(/added bob/);
      expect(r.stderr).toMatch(/git handoff key accept/);
    }
    expect(ada.notesRef()).toBe(tip);
    // a shared or private write is not held up
    writeDoc(ada, 'ADA-PRIVATE', '--private');
    const dry = handoff(ada, ['key', 'accept', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(handoff(ada, ['write', '--team', '--summary', 'x']).code).toBe(1);
    const accept = handoff(ada, ['key', 'accept']);
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toMatch(/added bob/);
    expect(accept.stdout).toMatch(/2 readers/);
    const three = handoff(ada, ['write', '--team'], { input: 'summary: TEAM-THREE\n' });
    expect(three.code, three.stderr).toBe(0);
    expect(three.stdout).toMatch(/team: encrypted for 2 readers/);
    expect(handoff(bob, ['show']).code).toBe(0);

    // ada removes bob: the write says plainly that what bob could read stays readable to him
    ada.commit('readers: ada only', { '.handoff-recipients': `${adaKey} # ada\n` });
    const four = handoff(ada, ['write', '--team'], { input: 'summary: TEAM-FOUR\n' });
    expect(four.stdout).toMatch(/team: encrypted for 1 reader\b/);
    expect(four.stderr).toMatch(/removed bob/);
    expect(four.stderr).toMatch(/the versions encrypted to a removed key before stay readable to it/);

    // a branch someone else made with another list: checked out here, it is a change that arrived too
    const danKey = handoff(bob, ['key', 'new'], { env: { XDG_CONFIG_HOME: tempDir('handoff-xdg-dan-') } }).stdout.trim();
    bob.git('checkout', '-q', '-b', 'wide');
    bob.commit('readers: dan too', { '.handoff-recipients': `${adaKey} # ada\n${bobKey} # bob\n${danKey} # dan\n` });
    bob.git('push', '-q', 'origin', 'wide');
    ada.git('fetch', '-q', 'origin');
    ada.git('checkout', '-q', '-b', 'wide', 'origin/wide');
    const other = handoff(ada, ['write', '--team', '--summary', 'x']);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/arrived with a pull, merge or checkout \(added bob .*, dan .* since the readers you accepted last\)/);
  });
});

describe('a head the writer cannot read', () => {
  it('is refused as the base of a patch write, naming the cause; a whole document continues it', () => {
    const fleet = new Fleet(2);
    const ada = as(fleet.clones[0], 'ada');
    const carol = as(fleet.clones[1], 'carol');
    newKey(ada);
    write(ada, 'SHARED-BASE');
    const sealed = write(ada, 'ADA-SECRET', '--private').json.version as string;
    sync(ada);
    sync(carol);
    const tip = carol.notesRef();
    for (const args of [
      ['--summary', 'patched'],
      ['--add-guard', 'no'],
    ]) {
      const r = handoff(carol, ['write', ...args]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(new RegExp(`the latest version ${sealed.slice(0, 12)} is encrypted .*cannot read`));
      expect(r.stderr).toMatch(/whole document/);
    }
    const patch = handoff(carol, ['write', '--patch', '--json'], { input: 'summary: p\n' });
    expect(patch.code).toBe(1);
    expect(patch.json).toMatchObject({ ok: false, error: { code: 'UnreadableHead' } });
    expect(carol.notesRef()).toBe(tip);

    // a whole document is fine, and continues the head it could not read: one head for ada afterwards
    const whole = handoff(carol, ['write', '--json'], { input: 'summary: CAROL-WHOLE\n' });
    expect(whole.code, whole.stderr).toBe(0);
    sync(carol);
    sync(ada);
    const shown = handoff(ada, ['show', '--json']);
    expect(shown.json).toMatchObject({ handoff: { summary: 'CAROL-WHOLE' }, diverged: false });
    expect(shown.json.continues).toContain(sealed);
  });
});

describe('doctor', () => {
  it('lists the versions the current key cannot read: how many and which, bounded', () => {
    const fleet = new Fleet(1);
    const ada = as(fleet.clones[0], 'ada');
    newKey(ada);
    write(ada, 'SHARED');
    const ids = [write(ada, 'P1', '--private').json.version, writeDoc(ada, 'P2', '--private').json.version];
    const unreadable = () => (handoff(ada, ['doctor', '--json']).json.findings as any[]).filter((f) => f.kind === 'unreadable');
    expect(unreadable()).toEqual([]);
    // the same user on a machine with another key (a lost identity, a new laptop)
    ada.env.XDG_CONFIG_HOME = tempDir('handoff-xdg-ada2-');
    newKey(ada);
    // in log --json they are not invalid (their ciphertext is whole), only not readable
    const rows = handoff(ada, ['log', '--json']).json.versions as any[];
    expect(rows.slice(0, 2).map((r) => [r.valid, r.readable, r.summary])).toEqual([
      [true, false, null],
      [true, false, null],
    ]);
    const [f] = unreadable();
    expect(f).toMatchObject({ level: 'note', count: 2, versions: [ids[1], ids[0]] });
    const text = handoff(ada, ['doctor']).stdout;
    expect(text).toMatch(
      new RegExp(`note: 2 versions are encrypted for others and your key cannot read them: ${ids[1].slice(0, 12)}, ${ids[0].slice(0, 12)} \\(`),
    );
    for (let i = 0; i < 7; i++) writeDoc(ada, `Q${i}`, '--private');
    ada.env.XDG_CONFIG_HOME = tempDir('handoff-xdg-ada3-');
    const many = handoff(ada, ['doctor'])
      .stdout.split('\n')
      .find((l) => l.includes('your key cannot read'))!;
    expect(many).toMatch(/9 versions are encrypted .*: ([0-9a-f]{12}, ){4}[0-9a-f]{12} and 4 more \(/);
  });
});

describe('doctor --key', () => {
  it('lists the versions another public key cannot read, from the readers list in the clear; what cannot be told is said so', () => {
    const fleet = new Fleet(2);
    const ada = as(fleet.clones[0], 'ada');
    const carol = as(fleet.clones[1], 'carol');
    const adaKey = newKey(ada);
    const bobKey = handoff(ada, ['key', 'new'], { env: { XDG_CONFIG_HOME: tempDir('handoff-xdg-bob-') } }).stdout.trim();
    const danKey = handoff(ada, ['key', 'new'], { env: { XDG_CONFIG_HOME: tempDir('handoff-xdg-dan-') } }).stdout.trim();
    ada.commit('readers: ada and bob', { '.handoff-recipients': `${adaKey} # ada\n${bobKey} # bob\n` });
    const t1 = writeDoc(ada, 'TEAM-BOTH', '--team').json.version as string;
    ada.commit('readers: ada only', { '.handoff-recipients': `${adaKey} # ada\n` });
    const t2 = writeDoc(ada, 'TEAM-ADA', '--team').json.version as string;
    const p1 = writeDoc(ada, 'PRIVATE', '--private').json.version as string;
    writeDoc(ada, 'SHARED');
    ada.git('push', '-q', 'origin', 'main');
    sync(ada);
    carol.git('pull', '-q', 'origin', 'main');
    sync(carol);
    const keyFinding = (repo: FleetRepo, key: string) => {
      const r = handoff(repo, ['doctor', '--json', '--key', key]);
      expect(r.json?.ok, r.stdout + r.stderr).toBe(true);
      return (r.json.findings as any[]).find((f) => f.kind === 'key');
    };
    // carol holds no key at all: the answer is the same as in ada's clone, from what is in the clear
    for (const repo of [ada, carol]) {
      expect(keyFinding(repo, bobKey)).toMatchObject({ level: 'note', subject: bobKey, versions: [t2], count: 1, unknown: [p1], unknownCount: 1 });
      expect(keyFinding(repo, danKey)).toMatchObject({ versions: [t2, t1], count: 2, unknown: [p1], unknownCount: 1 });
    }
    const line = handoff(carol, ['doctor', '--key', bobKey])
      .stdout.split('\n')
      .find((l) => l.includes(bobKey.slice(0, 12)))!;
    expect(line).toMatch(
      new RegExp(
        `^note: 1 version cannot be read by ${bobKey.slice(0, 12)}\\.\\.\\.: ${t2.slice(0, 12)}; 1 more cannot be told from what is in the clear \\(${p1.slice(0, 12)}\\): private versions`,
      ),
    );
    // her own key: exact, by decrypting
    expect(keyFinding(ada, adaKey)).toMatchObject({ versions: [], count: 0, unknownCount: 0 });
    expect(keyFinding(ada, adaKey).message).toMatch(/your own key\) can read every encrypted version/);
    // not a key: a usage error in one line, exit 2
    const bad = handoff(ada, ['doctor', '--key', 'age1nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/--key age1nope is not an age public key/);
  });
});

describe('the outgoing secret scan', () => {
  it('vouches for an encrypted version written here (scanned before it was encrypted), not for one fetched from elsewhere', () => {
    const fleet = new Fleet(3);
    const ada = as(fleet.clones[0], 'ada');
    const bob = as(fleet.clones[1], 'bob');
    const carol = as(fleet.clones[2], 'carol');
    const adaKey = newKey(ada);
    ada.commit('readers: ada', { '.handoff-recipients': `${adaKey} # ada\n` });
    ada.git('push', '-q', 'origin', 'main');
    bob.git('pull', '-q', 'origin', 'main');
    expect(handoff(bob, ['key', 'accept']).code).toBe(0);
    // bob writes for ada alone: he cannot read it back, but his own text was scanned before it was encrypted
    const team = writeDoc(bob, 'FOR-ADA', '--team').json.version as string;
    const mirror = (repo: FleetRepo, name: string) => {
      const dir = tempDir(`handoff-mirror-${name}-`);
      repo.git('init', '-q', '--bare', dir);
      repo.git('remote', 'add', name, dir);
    };
    mirror(bob, 'mirror');
    const b = handoff(bob, ['sync', '--json', 'mirror']);
    expect(b.code, b.stderr).toBe(0);
    expect(b.json.unscanned).toBeUndefined();
    sync(bob);
    // carol fetched it and cannot read it: pushed elsewhere, it is named as not vouched for
    sync(carol);
    mirror(carol, 'mirror');
    const dry = handoff(carol, ['sync', '--dry-run', '--json', 'mirror']);
    expect(dry.json.unscanned).toEqual([team]);
    const c = handoff(carol, ['sync', 'mirror']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(new RegExp(`sent 1 version encrypted for others that came from elsewhere: .*does not vouch for it \\(${team.slice(0, 12)}\\)`));
    // the pre-push hook (init --sync) says the same line, whichever way it pushes the history
    expect(handoff(carol, ['init', '--sync']).code).toBe(0);
    mirror(carol, 'mirror2');
    const push = gitWithHooks(carol, ['push', '-q', 'mirror2', 'main']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toMatch(
      new RegExp(`^git-handoff: sent 1 version encrypted for others that came from elsewhere: .*does not vouch for it \\(${team.slice(0, 12)}\\)$`, 'm'),
    );
    // ada can read it: her push scans it as text, and names nothing
    sync(ada);
    mirror(ada, 'mirror');
    const a = handoff(ada, ['sync', '--json', 'mirror']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.json.unscanned).toBeUndefined();
  });
});
