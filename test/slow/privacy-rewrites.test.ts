/**
 * Encrypted versions through history operations (issue 26, docs/privacy.md): a rebase, an
 * interactive squash, a local squash merge with the branch deleted, a squash merge on the
 * forge, and `doctor --fix` after them, with team and private versions, for a reader with
 * the key and one without. Every version stays readable by exactly its readers, keeps its
 * visibility and its branch, and its ciphertext moves as it is (never decrypted and
 * encrypted again): the carried note is the very blob that was written.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Fleet, FleetRepo } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';
import { asUser as as, newKey } from '../helpers/privacy.js';

const ok = (r: ReturnType<typeof handoff>, what = '') => {
  expect(r.code, `${what} ${r.stderr}`).toBe(0);
  return r;
};
const write = (repo: FleetRepo, summary: string, ...flags: string[]): string =>
  ok(handoff(repo, ['write', '--json', ...flags], { input: `summary: ${summary}\n` })).json.version;
const sync = (repo: FleetRepo) => ok(handoff(repo, ['sync', '--json', 'origin'])).json;
/** `git rebase -i` driven by a sed script over the todo list; no editor for messages. */
const todo = (script: string) => ({ GIT_SEQUENCE_EDITOR: `sed -i -e '${script}'`, GIT_EDITOR: 'true' });

interface Row {
  version: string;
  summary: string | null;
  visibility: string;
  readable: boolean;
  valid: boolean;
  target: string;
  /** the version's Handoff-Branch trailer, in the clear (log --json has no branch) */
  branch: string | null;
}
const rows = (repo: FleetRepo): Row[] =>
  ok(handoff(repo, ['log', '--all', '--json'])).json.versions.map((v: Row) => ({
    ...v,
    branch: /^Handoff-Branch: (.*)$/m.exec(repo.git('log', '-1', '--format=%B', v.version))?.[1] ?? null,
  }));

/** Three users: ada and bob hold keys and read the team's versions; carol holds none. */
function team(): { fleet: Fleet; ada: FleetRepo; bob: FleetRepo; carol: FleetRepo } {
  const fleet = new Fleet(3);
  const ada = as(fleet.clones[0], 'ada');
  const bob = as(fleet.clones[1], 'bob');
  const carol = as(fleet.clones[2], 'carol');
  const keys = [newKey(ada), newKey(bob)];
  for (const r of [ada, bob, carol]) ok(handoff(r, ['init']), 'init');
  ada.commit('readers', { '.handoff-recipients': `${keys[0]} # ada\n${keys[1]} # bob\n` });
  ada.git('push', '-q', 'origin', 'main');
  for (const r of [bob, carol]) r.git('pull', '-q', 'origin', 'main');
  return { fleet, ada, bob, carol };
}

/** What each may read: ada everything, bob shared and team, carol shared only. */
function mayRead(user: string, visibility: string): boolean {
  return visibility === 'shared' || (visibility === 'team' && user !== 'carol') || user === 'ada';
}

/**
 * Every version of the log, in every clone, has the visibility `want` says its summary's
 * marker was written with, and is readable exactly by its readers; no clone's log names a
 * marker its user may not read.
 */
function expectReadable(users: Record<string, FleetRepo>, want: Record<string, string>): void {
  const all = Object.values(users);
  for (const r of all) sync(r);
  for (const [user, repo] of Object.entries(users)) {
    const log = rows(repo);
    const seen = new Set<string>();
    for (const row of log) {
      expect(row.valid, `${user}: ${row.version} is valid`).toBe(true);
      if (row.readable) {
        const mark = row.summary!.split(' ')[0];
        expect(want[mark], `${user} reads ${mark}, a marker of this test`).toBeDefined();
        expect(row.visibility, `${user}: ${mark} keeps its visibility`).toBe(want[mark]);
        expect(mayRead(user, row.visibility), `${user} may read ${mark}`).toBe(true);
        seen.add(mark);
      } else {
        expect(row.summary).toBeNull();
        expect(row.visibility).not.toBe('shared');
        expect(mayRead(user, row.visibility), `${user} cannot read a ${row.visibility} version ${row.version.slice(0, 12)}`).toBe(false);
      }
    }
    for (const [mark, v] of Object.entries(want)) if (mayRead(user, v)) expect(seen, `${user} still reads ${mark}`).toContain(mark);
    const text = ok(handoff(repo, ['log', '--all'])).stdout;
    for (const [mark, v] of Object.entries(want)) if (!mayRead(user, v)) expect(text, `${user}'s log`).not.toContain(mark);
  }
}

/** The blob of each version's note where it sits now, by summary marker, as ada reads them. */
const blobOf = (repo: FleetRepo, target: string) => repo.git('rev-parse', `refs/notes/handoff:${target}`).trim();

describe('rebase and interactive squash', () => {
  it('a rebase copies each encrypted note as it is; a squash the hook carries keeps the version private and on its branch', () => {
    const { ada, bob, carol } = team();
    const users = { ada, bob, carol };
    ada.git('checkout', '-q', '-b', 'topic');
    const want: Record<string, string> = {};
    const marks = [
      ['TEAM-A', 'team'],
      ['TEAM-B', 'team'],
      ['PRIV-C', 'private'],
    ] as const;
    for (const [mark, vis] of marks) {
      expect(commitWithHooks(ada, `feat: ${mark}`, { [`${mark}.txt`]: `${mark}\n` }).code).toBe(0);
      write(ada, `${mark} on topic`, `--${vis}`);
      want[mark] = vis;
    }
    ada.git('checkout', '-q', 'main');
    write(ada, 'SHARED-M on main');
    want['SHARED-M'] = 'shared';
    commitWithHooks(ada, 'feat: main moves', { 'm.txt': 'm\n' });
    ada.git('checkout', '-q', 'topic');
    const blobs = ['HEAD~2', 'HEAD~1', 'HEAD'].map((r) => blobOf(ada, ada.git('rev-parse', r).trim()));

    // a plain rebase: git copies the notes (notes.rewriteRef, set by init), byte for byte
    const before = rows(ada).length;
    const r = gitWithHooks(ada, ['rebase', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(['HEAD~2', 'HEAD~1', 'HEAD'].map((x) => blobOf(ada, ada.git('rev-parse', x).trim()))).toEqual(blobs);
    expect(rows(ada)).toHaveLength(before);
    expect(ok(handoff(ada, ['show', '--json'])).json).toMatchObject({ target: ada.head(), visibility: 'private', handoff: { summary: 'PRIV-C on topic' } });
    expectReadable(users, want);

    // an interactive squash that leaves git's copy on the older note (todo: a, c, squash b):
    // post-rewrite carries the newest (PRIV-C) onto the squashed commit as it is
    const s = gitWithHooks(ada, ['rebase', '-i', 'main'], { env: todo('2{h;d};3{G;s/\\npick/\\nsquash/}') });
    expect(s.code, s.stderr).toBe(0);
    expect(ada.git('rev-list', '--count', 'main..HEAD').trim()).toBe('2');
    expect(blobOf(ada, ada.head())).toBe(blobs[2]);
    const carried = rows(ada)[0];
    expect(carried).toMatchObject({ summary: 'PRIV-C on topic', visibility: 'private', branch: 'topic', target: ada.head() });
    const trailers = ada.git('log', '-1', '--format=%B', 'refs/notes/handoff');
    expect(trailers).toMatch(/^Handoff-Visibility: private$/m);
    expect(trailers).toMatch(/^Handoff-Branch: topic$/m);
    expect(ok(handoff(ada, ['show', '--json'])).json).toMatchObject({ visibility: 'private', readable: true, handoff: { summary: 'PRIV-C on topic' } });
    expectReadable(users, want);
    // bob reads topic's newest team version, and one line for the private one
    const b = ok(handoff(bob, ['show', '--branch', 'topic']));
    expect(b.stdout).toContain('TEAM-B');
    expect(b.stdout + b.stderr).toMatch(/encrypted for 1 reader, not you; written by ada on topic/);
    const c = ok(handoff(carol, ['show', '--branch', 'topic']));
    expect(c.stdout + c.stderr).not.toMatch(/TEAM-|PRIV-/);
  });
});

describe('a local squash merge, the branch deleted', () => {
  it('the post-commit carry keeps the visibility; without the hook, doctor --fix re-attaches the ciphertext as it is', () => {
    const { ada, bob, carol } = team();
    const users = { ada, bob, carol };
    const want: Record<string, string> = {};
    // with the hooks: post-commit carries the newest note onto the squash commit
    ada.git('checkout', '-q', '-b', 'feat');
    expect(commitWithHooks(ada, 'feat: x', { 'x.txt': 'x\n' }).code).toBe(0);
    write(ada, 'TEAM-X on feat', '--team');
    expect(commitWithHooks(ada, 'feat: y', { 'y.txt': 'y\n' }).code).toBe(0);
    write(ada, 'PRIV-Y on feat', '--private');
    Object.assign(want, { 'TEAM-X': 'team', 'PRIV-Y': 'private' });
    const yBlob = blobOf(ada, ada.head());
    ada.git('checkout', '-q', 'main');
    expect(gitWithHooks(ada, ['merge', '-q', '--squash', 'feat']).code).toBe(0);
    const sq = commitWithHooks(ada, 'feat (squashed)').head;
    expect(blobOf(ada, sq)).toBe(yBlob);
    expect(rows(ada)[0]).toMatchObject({ summary: 'PRIV-Y on feat', visibility: 'private', branch: 'main', target: sq });
    ada.git('branch', '-q', '-D', 'feat');
    expect(handoff(ada, ['doctor', '--fix', '--json']).json.findings.filter((f: any) => f.fixable)).toEqual([]);
    expectReadable(users, want);

    // without the hooks (another tool made the squash): doctor --fix finds the note by the
    // tree of its commit, which is in the clear, and moves the ciphertext as it is
    ada.git('checkout', '-q', '-b', 'feat2');
    ada.commit('feat: z', { 'z.txt': 'z\n' });
    write(ada, 'TEAM-Z on feat2', '--team');
    ada.commit('feat: w', { 'w.txt': 'w\n' });
    const w = ada.head();
    write(ada, 'PRIV-W on feat2', '--private');
    Object.assign(want, { 'TEAM-Z': 'team', 'PRIV-W': 'private' });
    const wBlob = blobOf(ada, w);
    ada.git('checkout', '-q', 'main');
    ada.git('merge', '-q', '--squash', 'feat2');
    const sq2 = ada.commit('feat2 (squashed)');
    ada.git('branch', '-q', '-D', 'feat2');
    ada.git('reflog', 'expire', '--expire=now', '--all');
    const check = handoff(ada, ['doctor', '--json']).json.findings.find((f: any) => f.subject === w);
    expect(check, 'doctor names the orphaned encrypted note').toMatchObject({ kind: 'orphan', fixable: true, to: sq2 });
    const fix = handoff(ada, ['doctor', '--fix', '--json']);
    const fixed = fix.json.findings.find((f: any) => f.subject === w);
    expect(fixed, fix.stdout).toMatchObject({ fixed: true, to: sq2, branch: 'main' });
    expect(blobOf(ada, sq2)).toBe(wBlob);
    expect(rows(ada)[0]).toMatchObject({ summary: 'PRIV-W on feat2', visibility: 'private', branch: 'main', target: sq2 });
    expect(ok(handoff(ada, ['show', '--json'])).json).toMatchObject({ target: sq2, handoff: { summary: 'PRIV-W on feat2' }, due: false });
    expectReadable(users, want);
  });
});

/** What a hosting server does with a branch, in a scratch clone of its own: no notes are rewritten. */
function serverSquash(fleet: Fleet, branch: string): string {
  const dir = join(fleet.root, `server-${branch}`);
  execFileSync('git', ['clone', '-q', fleet.remote.dir, dir], { env: fleet.remote.env, stdio: 'pipe' });
  const srv = new FleetRepo(dir, fleet.remote.env, fleet, 'server');
  srv.git('checkout', '-q', 'main');
  srv.git('merge', '-q', '--squash', `origin/${branch}`);
  srv.git('commit', '-q', '-m', `${branch} (#1)`);
  srv.git('push', '-q', 'origin', 'HEAD:main', `:${branch}`);
  return srv.head();
}

describe('a squash merge on the forge', () => {
  it('the pull carries the encrypted note; doctor --fix places it with the key and without one, from what is in the clear', () => {
    const { fleet, ada, bob, carol } = team();
    const users = { ada, bob, carol };
    const want: Record<string, string> = { 'TEAM-F1': 'team', 'PRIV-F2': 'private', 'TEAM-F3': 'team' };
    ada.git('checkout', '-q', '-b', 'feat');
    ada.commit('feat: f1', { 'f1.txt': 'f1\n' });
    write(ada, 'TEAM-F1 on feat', '--team');
    ada.commit('feat: f2', { 'f2.txt': 'f2\n' });
    const f2 = ada.head();
    write(ada, 'PRIV-F2 on feat', '--private');
    const f2Blob = blobOf(ada, f2);
    ada.git('push', '-q', 'origin', 'feat');
    // bob writes a team version on a feature of his own, merged the same way
    ok(handoff(bob, ['key', 'accept']));
    bob.git('fetch', '-q', 'origin');
    bob.git('checkout', '-q', '-b', 'feat3', 'origin/main');
    bob.commit('feat: f3', { 'f3.txt': 'f3\n' });
    const f3 = bob.head();
    write(bob, 'TEAM-F3 on feat3', '--team');
    bob.git('push', '-q', 'origin', 'feat3');
    for (const r of [ada, bob, carol]) sync(r);
    carol.git('fetch', '-q', 'origin'); // carol has the feature commits, and no key

    const squash = serverSquash(fleet, 'feat');
    // ada pulls with the hooks: post-merge carries the encrypted note of f2 onto the squash commit
    ada.git('checkout', '-q', 'main');
    const pull = gitWithHooks(ada, ['pull', '-q', 'origin', 'main']);
    expect(pull.code, pull.stderr).toBe(0);
    expect(ada.head()).toBe(squash);
    expect(blobOf(ada, squash), 'the pull carried the note').toBe(f2Blob);
    expect(rows(ada)[0]).toMatchObject({ summary: 'PRIV-F2 on feat', visibility: 'private', branch: 'main', target: squash });

    // carol, without a key and without the hooks: the branch is gone, doctor --fix places the
    // note she cannot read by its commit's tree
    carol.git('fetch', '-q', '--prune', 'origin');
    carol.git('pull', '-q', 'origin', 'main');
    const fix = handoff(carol, ['doctor', '--fix', '--json']);
    const placed = fix.json.findings.find((f: any) => f.subject === f2);
    expect(placed, fix.stdout).toMatchObject({ fixed: true, to: squash, branch: 'main' });
    expect(blobOf(carol, squash)).toBe(f2Blob);
    expect(rows(carol)[0]).toMatchObject({ summary: null, readable: false, visibility: 'private', branch: 'main', target: squash });

    // bob's feature squashed too; bob forgets it entirely (no commit left here): his key reads the note's own tree
    const squash3 = serverSquash(fleet, 'feat3');
    bob.git('checkout', '-q', 'main');
    bob.git('pull', '-q', 'origin', 'main');
    bob.git('fetch', '-q', '--prune', 'origin');
    bob.gitRaw(['branch', '-q', '-D', 'feat3']);
    bob.git('reflog', 'expire', '--expire=now', '--all');
    bob.git('gc', '-q', '--prune=now');
    expect(bob.gitRaw(['cat-file', '-e', f3]).status).not.toBe(0);
    const bobFix = handoff(bob, ['doctor', '--fix', '--json']);
    expect(
      bobFix.json.findings.find((f: any) => f.subject === f3),
      bobFix.stdout,
    ).toMatchObject({ fixed: true, to: squash3 });
    // ada's private note of f2, whose commit bob no longer has: nothing in the clear places it, and doctor says why
    expect(bobFix.json.findings.find((f: any) => f.subject === f2)?.message, bobFix.stdout).toMatch(
      /cannot be re-attached: the note is encrypted for others and its commit is not in this clone/,
    );
    expect(rows(bob)[0]).toMatchObject({ summary: 'TEAM-F3 on feat3', visibility: 'team', branch: 'main', target: squash3 });

    // every clone agrees after the syncs, and each reads exactly what it may
    for (const r of [ada, carol, bob, ada, carol]) expect(sync(r).conflicts ?? []).toEqual([]);
    expectReadable(users, want);
    expect(ok(handoff(ada, ['show', '--json'])).json).toMatchObject({ handoff: { summary: 'TEAM-F3 on feat3' } });
    for (const r of [bob, carol]) expect(handoff(r, ['show']).stdout).not.toContain('PRIV-F2');
  });
});
