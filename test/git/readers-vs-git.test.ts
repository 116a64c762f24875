/**
 * Each in-process reader (config, objects and packs, discovery and refs) gives
 * git's answer or declines so git answers; never a third result. Each case runs the reader
 * and git itself on the same repository and compares.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { discoverInProcess, type Discovered } from '../../src/git/discover.js';
import { readConfigInProcess } from '../../src/git/config-file.js';
import { InProcessObjects, ReaderDeclined } from '../../src/git/packs.js';
import { GitObjectStore } from '../../src/git/object-store.js';
import { Repo } from '../../src/git/repo.js';

function withEnv<T>(env: NodeJS.ProcessEnv, fn: () => T): T {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return fn();
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}
async function withEnvAsync<T>(env: NodeJS.ProcessEnv, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** `git config -l -z` as (key, value) pairs, keys exactly as git spells them. */
function gitConfigList(cwd: string, env: NodeJS.ProcessEnv): [string, string][] {
  return execFileSync('git', ['config', '-l', '-z'], { cwd, env, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean)
    .map((kv) => {
      const nl = kv.indexOf('\n');
      return [nl < 0 ? kv : kv.slice(0, nl), nl < 0 ? 'true' : kv.slice(nl + 1)];
    });
}
const flat = (m: Map<string, string[]>) => [...m].flatMap(([k, vs]) => vs.map((v) => [k, v]));
/** Each key's values in order (the shape the reader returns; the order across keys is not kept). */
const byKey = (pairs: string[][]) => {
  const m = new Map<string, string[]>();
  for (const [k, v] of pairs) m.set(k, [...(m.get(k) ?? []), v]);
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};

describe('config: git’s answer or a decline', () => {
  it('keeps subsection names case-sensitive: [remote "Origin"] is not remote.origin', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    repo.git('remote', 'add', 'Origin', 'https://example.com/x.git');
    const env = isolatedEnv();
    const ours = withEnv(env, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')))!;
    expect(flat(ours)).toEqual(gitConfigList(repo.dir, env));
    expect(ours.get('remote.Origin.url')).toEqual(['https://example.com/x.git']);
    expect(ours.has('remote.origin.url')).toBe(false);
    const r = await withEnvAsync(env, async () => {
      const repoObj = await Repo.discover(repo.dir);
      try {
        return [await repoObj.configGet('remote.origin.url'), await repoObj.configGet('REMOTE.Origin.URL')];
      } finally {
        repoObj.close();
      }
    });
    expect(r).toEqual([undefined, 'https://example.com/x.git']);
  });

  it('init --sync with only a remote `Origin` adds no bogus [remote "origin"]; `sync up` does not reach a remote `Up`', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    repo.git('remote', 'add', 'Origin', 'https://example.com/x.git');
    repo.git('remote', 'add', 'Up', join(tempDir(), 'nowhere.git'));
    const before = repo.git('config', '--get-regexp', '^remote\\.');
    const init = handoff(repo, ['init', '--sync']);
    expect(init.code, init.stderr).toBe(0);
    expect(repo.git('config', '--get-regexp', '^remote\\.')).toBe(before);
    expect(repo.gitRaw(['config', '--get-regexp', '^remote\\.origin\\.']).status).toBe(1);
    const up = handoff(repo, ['sync', 'up']);
    expect(up.code).toBe(1);
    expect(up.stderr).toContain("'up' is not a configured remote");
  });

  it('the system file: /etc/gitconfig only for /usr/bin/git; another git build on PATH is asked', async () => {
    const repo = TestRepo.init();
    const sys = join(tempDir(), 'system-gitconfig');
    writeFileSync(sys, '[handoff]\n\tstaleDays = 9\n[remote "Sys"]\n\turl = x\n');
    // A git built with another prefix reads its own system file; a wrapper plays that build.
    const bin = tempDir();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nGIT_CONFIG_SYSTEM=${sys} exec /usr/bin/git "$@"\n`);
    chmodSync(join(bin, 'git'), 0o755);
    const env: NodeJS.ProcessEnv = { ...isolatedEnv(), PATH: `${bin}:${process.env.PATH}` };
    delete env.GIT_CONFIG_NOSYSTEM;
    expect(withEnv(env, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')))).toBeNull();
    const viaGit = await withEnvAsync(env, async () => {
      const r = await Repo.discover(repo.dir);
      try {
        return [...(await r.config())].flatMap(([k, vs]) => vs.map((v) => [k, v]));
      } finally {
        r.close();
      }
    });
    expect(viaGit).toEqual(gitConfigList(repo.dir, env));
    expect(viaGit).toContainEqual(['handoff.staledays', '9']);
    // The distribution's git: the system file is read in-process, as git reads it.
    const plain: NodeJS.ProcessEnv = { ...isolatedEnv(), PATH: '/usr/bin:/bin' };
    delete plain.GIT_CONFIG_NOSYSTEM;
    for (const e of [plain, { ...plain, GIT_CONFIG_NOSYSTEM: 'no' }, { ...plain, GIT_CONFIG_SYSTEM: sys }]) {
      const ours = withEnv(e, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')));
      expect(ours).not.toBeNull();
      expect(flat(ours!)).toEqual(gitConfigList(repo.dir, e));
    }
  });

  it('skips a global file and a PATH folder it may not read, as git and execvp skip them', (ctx) => {
    if (process.getuid?.() !== 0 || !process.seteuid) return ctx.skip('needs root, to act as another user for a moment');
    const locked = tempDir();
    mkdirSync(join(locked, 'bin'));
    writeFileSync(join(locked, '.gitconfig'), '[handoff]\n\tstaleDays = 2\n');
    chmodSync(locked, 0o700);
    const repo = TestRepo.init();
    execFileSync('chmod', ['-R', 'a+rwX', repo.dir]);
    // safe.directory from the command line: the repository belongs to root, git runs as nobody.
    const env: NodeJS.ProcessEnv = {
      ...isolatedEnv({
        HOME: locked,
        PATH: `${join(locked, 'bin')}:/usr/bin:/bin`,
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'safe.directory',
        GIT_CONFIG_VALUE_0: '*',
      }),
    };
    delete env.GIT_CONFIG_GLOBAL;
    const ours = withEnv(env, () => {
      process.seteuid!(65534);
      try {
        return readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git'));
      } finally {
        process.seteuid!(0);
      }
    });
    const theirs = spawnSync('git', ['config', '-l', '-z'], { cwd: repo.dir, env, uid: 65534, encoding: 'utf8' });
    expect(theirs.status, theirs.stderr).toBe(0);
    expect(theirs.stdout).toContain('core.bare');
    expect(
      ours &&
        flat(ours)
          .map(([k, v]) => `${k}\n${v}`)
          .join('\0') + '\0',
    ).toBe(theirs.stdout);
  });

  it('follows include and includeIf (gitdir, gitdir/i, ./, onbranch) as git does, or declines', () => {
    const home = tempDir('handoff-home-');
    mkdirSync(join(home, 'inc/deeper'), { recursive: true });
    mkdirSync(join(home, 'Work'), { recursive: true });
    const w = (f: string, t: string) => writeFileSync(join(home, f), t);
    w('inc/a', '[a]\n\tx = 1\n[include]\n\tpath = deeper/b\n');
    w('inc/deeper/b', '[b]\n\ty = 2\n');
    w('inc/work', '[user]\n\temail = work@example.com\n');
    w('inc/icase', '[c]\n\ticase = yes\n');
    w('inc/rel', '[c]\n\trelative = yes\n');
    w('inc/main', '[c]\n\tmain = yes\n');
    w('inc/release', '[c]\n\trelease = yes\n');
    w('inc/unknown', '[c]\n\tunknown = yes\n');
    const base = [
      '[user]\n\tname = Ada\n',
      '[include]\n\tpath = inc/a\n\tpath = ~/inc/missing\n',
      '[includeIf "gitdir:~/Work/"]\n\tpath = ~/inc/work\n',
      '[includeIf "gitdir/i:~/work/"]\n\tpath = inc/icase\n',
      '[includeIf "gitdir:./Work/"]\n\tpath = inc/rel\n',
      '[includeIf "gitdir:app/.git"]\n\tpath = inc/rel\n',
      '[includeIf "onbranch:main"]\n\tpath = inc/main\n',
      '[includeIf "onbranch:release/"]\n\tpath = inc/release\n',
      '[includeIf "nosuchcondition"]\n\tpath = inc/unknown\n',
    ].join('');
    w('.gitconfig', base);
    const inWork = TestRepo.init({ dir: (mkdirSync(join(home, 'Work/app')), join(home, 'Work/app')) });
    inWork.commit('feat: start');
    const elsewhere = TestRepo.init();
    elsewhere.commit('feat: start');
    inWork.git('config', '--local', 'include.path', '../local.inc');
    writeFileSync(join(inWork.dir, 'local.inc'), '[from]\n\trepo = yes\n');
    const env = isolatedEnv({ HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig') });
    const compare = (repo: TestRepo) => {
      const ours = withEnv(env, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')));
      expect(ours).not.toBeNull();
      expect(byKey(flat(ours!))).toEqual(byKey(gitConfigList(repo.dir, env)));
      return ours!;
    };
    expect(compare(inWork).get('user.email')).toEqual(['work@example.com']);
    expect(compare(inWork).get('from.repo')).toEqual(['yes']);
    expect(compare(elsewhere).has('user.email')).toBe(false);
    inWork.git('checkout', '-q', '-b', 'release/2');
    expect(compare(inWork).get('c.release')).toEqual(['yes']);
    // Glob patterns and hasconfig: are git's to judge.
    for (const extra of ['[includeIf "gitdir:~/W*rk/"]\n\tpath = inc/work\n', '[includeIf "hasconfig:remote.*.url:https://x/**"]\n\tpath = inc/work\n']) {
      w('.gitconfig', base + extra);
      expect(withEnv(env, () => readConfigInProcess(join(inWork.dir, '.git'), join(inWork.dir, '.git')))).toBeNull();
    }
  });

  it('reads config.worktree only when the repository turns worktreeConfig on, as git does', () => {
    const repo = TestRepo.init();
    writeFileSync(join(repo.dir, '.git/config.worktree'), '[handoff]\n\tstaleDays = 4\n');
    const global = join(tempDir(), 'global');
    // worktreeConfig set globally does not count: git reads it from the repository's format.
    writeFileSync(global, '[extensions]\n\tworktreeConfig = true\n');
    for (const extra of [{ GIT_CONFIG_GLOBAL: global }, {}]) {
      const env = isolatedEnv(extra);
      const ours = withEnv(env, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')));
      expect(ours && flat(ours)).toEqual(gitConfigList(repo.dir, env));
    }
    repo.git('config', 'extensions.worktreeConfig', 'yes');
    const env = isolatedEnv();
    const ours = withEnv(env, () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')));
    expect(ours && flat(ours)).toEqual(gitConfigList(repo.dir, env));
    expect(ours!.get('handoff.staledays')).toEqual(['4']);
  });
});

describe('objects and packs: git’s answer or a decline', () => {
  function history(n: number): TestRepo {
    const repo = TestRepo.init();
    let text = '';
    for (let i = 0; i < n; i++) {
      text += `line ${i} ${'y'.repeat(i * 13)}\n`;
      repo.commit(`c${i}`, { 'f.txt': text, [`d${i % 3}/g.txt`]: `${i}` });
    }
    return repo;
  }
  /**
   * git's stdout; what it says on stderr is kept (a passing run prints nothing that looks like
   * an error) and checked: only the complaint about the missing alternate a test names on purpose.
   */
  const quietGit = (args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Buffer => {
    const r = spawnSync('git', args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(r.status, r.stderr.toString()).toBe(0);
    expect(r.stderr.toString()).toMatch(/^(error: object directory \/nonexistent does not exist(; check .git\/objects\/info\/alternates)?\n)*$/);
    return r.stdout;
  };
  const allObjects = (dir: string, env = isolatedEnv()) =>
    quietGit(['cat-file', '--batch-all-objects', '--batch-check'], { cwd: dir, env })
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string, string]);

  it('a pack index v1 declines instead of throwing; the store then gives git’s answer', async () => {
    const repo = history(4);
    repo.git('-c', 'pack.indexVersion=1', 'repack', '-a', '-d', '-q');
    const idx = readdirSync(join(repo.dir, '.git/objects/pack')).find((f) => f.endsWith('.idx'))!;
    expect(readFileSync(join(repo.dir, '.git/objects/pack', idx)).readUInt32BE(0)).not.toBe(0xff744f63);
    const [oid, type] = allObjects(repo.dir)[0];
    const reader = new InProcessObjects(join(repo.dir, '.git/objects'));
    expect(() => reader.read(oid)).toThrow(ReaderDeclined);
    reader.close();
    const store = withEnv(isolatedEnv(), () => new GitObjectStore(join(repo.dir, '.git'), join(repo.dir, '.git/objects')));
    try {
      const obj = await withEnvAsync(isolatedEnv(), () => store.read(oid));
      expect(obj?.type).toBe(type);
      expect(Buffer.compare(obj!.data, execFileSync('git', ['cat-file', type, oid], { cwd: repo.dir, env: isolatedEnv() }))).toBe(0);
    } finally {
      store.close();
    }
  });

  it('follows nested alternates, quoted paths and GIT_ALTERNATE_OBJECT_DIRECTORIES as git does', () => {
    const a = history(6);
    a.git('gc', '-q');
    a.commit('loose one', { 'loose.txt': 'loose\n' });
    const b = TestRepo.init();
    writeFileSync(join(b.dir, '.git/objects/info/alternates'), `${join(a.dir, '.git/objects')}\n`);
    b.commit('in b', { 'b.txt': 'b\n' });
    // C reaches A only through B, by a relative path written C-quoted, after a comment.
    const spaced = join(tempDir(), 'with space');
    mkdirSync(spaced);
    const c = TestRepo.init({ dir: spaced });
    mkdirSync(join(c.dir, '.git/objects/info'), { recursive: true });
    writeFileSync(join(c.dir, '.git/objects/info/alternates'), `# shared\n"${relative(join(c.dir, '.git/objects'), join(b.dir, '.git/objects'))}"\n`);
    const theirs = allObjects(c.dir);
    expect(theirs.length).toBeGreaterThan(20);
    const check = (dir: string, list: [string, string, string][], env: NodeJS.ProcessEnv) =>
      withEnv(env, () => {
        const reader = new InProcessObjects(join(dir, '.git/objects'));
        let missed = 0;
        for (const [oid, type] of list) {
          const ours = reader.read(oid);
          if (!ours) missed++;
          else {
            expect(ours.type).toBe(type);
            expect(Buffer.compare(ours.data, quietGit(['cat-file', type, oid], { cwd: dir, env }))).toBe(0);
          }
        }
        reader.close();
        return missed;
      });
    expect(check(c.dir, theirs, isolatedEnv())).toBe(0);
    // The environment variable (':'-separated) names A directly for a repository with no alternates file.
    const d = TestRepo.init();
    const env = isolatedEnv({ GIT_ALTERNATE_OBJECT_DIRECTORIES: `/nonexistent:${join(b.dir, '.git/objects')}` });
    const viaEnv = allObjects(d.dir, env);
    expect(viaEnv.length).toBe(theirs.length);
    expect(check(d.dir, viaEnv, env)).toBe(0);
  });

  it('a corrupt object is an error, not a missing object (git cat-file --batch calls it "missing")', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': 'precious\n' });
    const oid = repo.git('rev-parse', 'HEAD:a.txt').trim();
    const file = join(repo.dir, '.git/objects', oid.slice(0, 2), oid.slice(2));
    chmodSync(file, 0o644);
    writeFileSync(file, 'garbage');
    expect(spawnSync('git', ['cat-file', '-p', oid], { cwd: repo.dir, env: isolatedEnv() }).status).not.toBe(0);
    const store = withEnv(isolatedEnv(), () => new GitObjectStore(join(repo.dir, '.git'), join(repo.dir, '.git/objects')));
    try {
      await expect(withEnvAsync(isolatedEnv(), () => store.read(oid))).rejects.toThrow(/is corrupt/);
    } finally {
      store.close();
    }
    // With a good packed copy, git reads that one, and so do we.
    const packed = TestRepo.init();
    packed.commit('feat: one', { 'a.txt': 'precious\n' });
    packed.git('repack', '-a', '-q'); // keeps the loose copies
    const f2 = join(packed.dir, '.git/objects', oid.slice(0, 2), oid.slice(2));
    chmodSync(f2, 0o644);
    writeFileSync(f2, 'garbage');
    expect(execFileSync('git', ['cat-file', '-p', oid], { cwd: packed.dir, env: isolatedEnv(), encoding: 'utf8' })).toBe('precious\n');
    const reader = new InProcessObjects(join(packed.dir, '.git/objects'));
    expect(reader.read(oid)?.data.toString()).toBe('precious\n');
    reader.close();
  });
});

describe('discovery and refs: git’s answer or a decline', () => {
  const revParse = (cwd: string, env: NodeJS.ProcessEnv) => {
    const r = spawnSync('git', ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository'], {
      cwd,
      env,
      encoding: 'utf8',
    });
    if (r.status !== 0) return null;
    const [gitDir, commonDir, bare] = r.stdout.split('\n');
    const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd, env, encoding: 'utf8' });
    return { gitDir, commonDir, workTree: bare === 'true' || top.status !== 0 ? null : top.stdout.trim() };
  };
  const ours = (cwd: string, env: NodeJS.ProcessEnv) => {
    const d = withEnv(env, () => discoverInProcess(cwd)) as Discovered | null;
    return d && { gitDir: d.gitDir, commonDir: d.commonDir, workTree: d.workTree };
  };

  it('a reftable repository (extensions.refStorage) is left to git: never the branch `.invalid`', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    repo.git('config', 'core.repositoryformatversion', '1');
    repo.git('config', 'extensions.refStorage', 'reftable');
    writeFileSync(join(repo.dir, '.git/HEAD'), 'ref: refs/heads/.invalid\n');
    const env = isolatedEnv();
    expect(withEnv(env, () => discoverInProcess(repo.dir))).toBeNull();
    const git = spawnSync('git', ['symbolic-ref', '--short', 'HEAD'], { cwd: repo.dir, env, encoding: 'utf8' });
    // Run directly: `git handoff` would add git's own "ignoring git dir" warning first.
    const show = handoff(repo, ['write', '--summary', 'x', '--json'], { via: 'bin' });
    if (git.status === 0) {
      // A git that reads reftable: our branch is its branch.
      expect(show.code, show.stderr).toBe(0);
      expect(show.json.handoff.branch).toBe(git.stdout.trim());
    } else {
      // git 2.39 refuses the unknown extension; so do we, in one line, writing nothing.
      expect(show.code).toBe(1);
      expect(show.stderr.trim().split('\n'), show.stderr).toHaveLength(1);
      expect(show.stderr).toContain('unknown repository extension found: refstorage');
    }
  });

  it('agrees with git rev-parse on gitfiles, nested repositories, GIT_DIR/GIT_WORK_TREE and the inside of git dirs', () => {
    const repo = TestRepo.init();
    repo.commit('x', { 'a/b.txt': 'x' });
    mkdirSync(join(repo.dir, 'sub'));
    const sub = TestRepo.init({ dir: join(repo.dir, 'sub') });
    sub.commit('y');
    // A submodule-like .git file naming a git dir elsewhere.
    const mod = join(tempDir(), 'modrepo');
    mkdirSync(mod);
    const modgit = TestRepo.init({ dir: mod });
    modgit.commit('m');
    const wt = join(tempDir(), 'gf');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(mod, '.git')}\n`);
    const bare = TestRepo.init({ bare: true });
    const cases: [string, string, NodeJS.ProcessEnv][] = [
      ['top', repo.dir, {}],
      ['nested repo', join(repo.dir, 'sub'), {}],
      ['gitfile', wt, {}],
      ['GIT_DIR+WT', join(repo.dir, 'a'), { GIT_DIR: join(repo.dir, '.git'), GIT_WORK_TREE: repo.dir }],
      ['GIT_DIR rel', join(repo.dir), { GIT_DIR: '.git' }],
      ['GIT_DIR bare', bare.dir, { GIT_DIR: bare.dir }],
      ['GIT_DIR bare + WT', repo.dir, { GIT_DIR: bare.dir, GIT_WORK_TREE: repo.dir }],
      ['bare refs dir', join(bare.dir, 'refs'), {}],
      ['.git/objects', join(repo.dir, '.git/objects'), {}],
      ['across=0', join(repo.dir, 'a'), { GIT_DISCOVERY_ACROSS_FILESYSTEM: '0' }],
      ['across=true', join(repo.dir, 'a'), { GIT_DISCOVERY_ACROSS_FILESYSTEM: 'true' }],
      [
        'GIT_TEST_ASSUME',
        join(repo.dir, 'a'),
        { GIT_TEST_ASSUME_DIFFERENT_OWNER: '1', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: repo.dir },
      ],
    ];
    const bad: unknown[] = [];
    for (const [name, cwd, extra] of cases) {
      const env = { ...isolatedEnv(), ...extra };
      const d = withEnv(env, () => discoverInProcess(cwd)) as (Discovered & { refused?: string }) | null;
      const theirs = revParse(cwd, env);
      const oursV = d && (d.refused ? d : { gitDir: d.gitDir, commonDir: d.commonDir, workTree: d.workTree });
      // Each of these is common enough to be answered in-process, and exactly.
      if (JSON.stringify(oursV) !== JSON.stringify(theirs)) bad.push({ name, oursV, theirs });
    }
    expect(bad).toEqual([]);
  });

  it('an old-style HEAD symlink (core.preferSymlinkRefs) names the branch git names', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    rmSync(join(repo.dir, '.git/HEAD'));
    symlinkSync('refs/heads/main', join(repo.dir, '.git/HEAD'));
    const env = isolatedEnv();
    expect(ours(repo.dir, env)).toEqual(revParse(repo.dir, env));
    const branch = await withEnvAsync(env, async () => {
      const r = await Repo.discover(repo.dir);
      try {
        return r.headBranch();
      } finally {
        r.close();
      }
    });
    expect(branch).toBe(execFileSync('git', ['symbolic-ref', '--short', 'HEAD'], { cwd: repo.dir, env, encoding: 'utf8' }).trim());
  });

  it('core.bare and core.worktree in config.worktree, and a linked worktree of a bare repository', () => {
    const env = isolatedEnv();
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a/x.txt': 'x\n' });
    repo.git('config', 'extensions.worktreeConfig', 'true');
    repo.git('config', '--worktree', 'core.bare', 'true');
    expect(ours(join(repo.dir, 'a'), env)).toEqual(revParse(join(repo.dir, 'a'), env));
    expect(revParse(join(repo.dir, 'a'), env)?.workTree).toBeNull();
    repo.git('config', '--worktree', '--unset', 'core.bare');
    const elsewhere = tempDir();
    repo.git('config', '--worktree', 'core.worktree', elsewhere);
    // core.worktree moves the work tree: this reader declines and git answers.
    expect(ours(join(repo.dir, 'a'), env)).toBeNull();

    const bare = TestRepo.init({ bare: true });
    const seed = TestRepo.init();
    seed.commit('feat: seed');
    seed.git('push', '-q', bare.dir, 'main');
    const wt = join(tempDir(), 'wt');
    bare.git('worktree', 'add', '-q', wt, 'main');
    expect(ours(wt, env)).toEqual(revParse(wt, env));
    expect(ours(wt, env)?.workTree).toBe(wt);
  });

  it('stops at a filesystem boundary unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set, as git does', (ctx) => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    expect(handoff(repo, ['write', '--summary', 'outer']).code).toBe(0);
    mkdirSync(join(repo.dir, 'mnt'));
    const probe = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs none '${join(repo.dir, 'mnt')}'`], { encoding: 'utf8' });
    if (probe.status !== 0) {
      ctx.skip(`cannot mount a tmpfs in a private mount namespace here (${probe.stderr.trim() || 'unshare failed'})`);
      return;
    }
    const inside = (extra: string) =>
      spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs none mnt && mkdir mnt/sub && cd mnt/sub && ${extra}`], {
        cwd: repo.dir,
        env: { ...repo.env, PATH: `${process.env.PATH}` },
        encoding: 'utf8',
      });
    const bin = spawnSync('sh', ['-c', 'command -v git-handoff'], { env: { ...repo.env, PATH: cliPath() }, encoding: 'utf8' }).stdout.trim();
    for (const across of ['', 'GIT_DISCOVERY_ACROSS_FILESYSTEM=1 ']) {
      const r = inside(`${across}git rev-parse --git-dir >/dev/null 2>&1; echo "git=$?"; ${across}'${bin}' show --json; echo "ours=$?"`);
      const git = /git=(\d+)/.exec(r.stdout)![1];
      const code = /ours=(\d+)/.exec(r.stdout)![1];
      expect({ across, code }).toEqual({ across, code: git === '0' ? '0' : '1' });
      if (git !== '0') expect(r.stderr).toContain('not a git repository');
    }
  });
});
