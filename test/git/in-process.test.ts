/**
 * The in-process readers (discovery, config, objects) must agree with git itself, since
 * they replace `git rev-parse`, `git config -l` and `git cat-file` on the hot paths.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { discoverInProcess, type Discovered } from '../../src/git/discover.js';
import { readConfigInProcess } from '../../src/git/config-file.js';
import { parseConfigText } from '../../src/git/config-text.js';
import { InProcessObjects } from '../../src/git/packs.js';

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

function revParse(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository'], {
    cwd,
    env: { ...isolatedEnv(), ...env },
    encoding: 'utf8',
  }).split('\n');
  let top: string | null = null;
  try {
    top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      env: { ...isolatedEnv(), ...env },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {}
  return { gitDir: out[0], commonDir: out[1], workTree: out[2] === 'true' ? null : top };
}

describe('in-process repository discovery agrees with git rev-parse', () => {
  const repo = TestRepo.init();
  repo.commit('init', { 'a/b/c.txt': 'x' });
  const wt = join(tempDir(), 'linked');
  repo.git('worktree', 'add', '-q', wt);
  const bare = TestRepo.init({ bare: true });

  it.each([
    ['the top of a work tree', () => repo.dir, {}],
    ['a subdirectory', () => join(repo.dir, 'a/b'), {}],
    ['inside .git', () => join(repo.dir, '.git'), {}],
    ['a linked worktree', () => wt, {}],
    ['a bare repository', () => bare.dir, {}],
    ['GIT_DIR as a hook in a linked worktree sees it', () => wt, { GIT_DIR: join(repo.dir, '.git/worktrees/linked') }],
  ] as [string, () => string, NodeJS.ProcessEnv][])('%s', (_name, cwd, env) => {
    const dir = cwd();
    const ours = withEnv({ ...isolatedEnv(), ...env }, () => discoverInProcess(dir)) as Discovered | null;
    expect(ours).not.toBeNull();
    const theirs = revParse(dir, env);
    expect({ gitDir: ours!.gitDir, commonDir: ours!.commonDir, workTree: ours!.workTree }).toEqual(theirs);
  });

  it('declines (so git decides) outside a repository and with ceilings', () => {
    const outside = tempDir();
    expect(withEnv(isolatedEnv(), () => discoverInProcess(outside))).toBeNull();
    expect(withEnv({ ...isolatedEnv(), GIT_CEILING_DIRECTORIES: repo.dir }, () => discoverInProcess(join(repo.dir, 'a')))).toBeNull();
  });

  it('reports the object format of a SHA-256 repository', () => {
    const dir = tempDir();
    execFileSync('git', ['init', '-q', '--object-format=sha256', dir], { env: isolatedEnv() });
    expect((withEnv(isolatedEnv(), () => discoverInProcess(dir)) as Discovered | null)?.objectFormat).toBe('sha256');
  });
});

describe('in-process config agrees with git config -l', () => {
  const tricky = [
    '[core]',
    '\trepositoryformatversion = 0',
    '\tBare = false',
    '[handoff]',
    '\tstaleDays = 3 ; a comment',
    '\thashPaths = a.md',
    '\thashPaths = "b c.md"',
    '\tflag',
    '[handoff "secrets"]',
    '\tallow = "AKIA[0-9A-Z]{16}EXAMPLE"',
    '[remote "Origin"]',
    '\turl = https://example.com/x.git # trailing',
    '\tpush = +refs/notes/*:refs/notes/*',
    '[user]',
    '\tname = "Ada \\"the\\" Tester"  ',
    '\temail = ada@example.com',
    '[alias]',
    '\tlg = log \\',
    '\t  --oneline',
    '',
  ].join('\n');

  it('reads every value as git does', () => {
    const repo = TestRepo.init();
    writeFileSync(join(repo.dir, '.git/config'), tricky);
    const git = execFileSync('git', ['config', '-l', '-z'], { cwd: repo.dir, env: isolatedEnv(), encoding: 'utf8' })
      .split('\0')
      .filter(Boolean)
      .map((kv) => {
        const nl = kv.indexOf('\n');
        return [kv.slice(0, nl < 0 ? undefined : nl), nl < 0 ? 'true' : kv.slice(nl + 1)];
      });
    const ours = withEnv(isolatedEnv(), () => readConfigInProcess(join(repo.dir, '.git'), join(repo.dir, '.git')));
    expect(ours).not.toBeNull();
    expect([...ours!].flatMap(([k, vs]) => vs.map((v) => [k, v]))).toEqual(git);
  });

  it('declines includes and `git -c` parameters', () => {
    expect(() => parseConfigText('[include]\n\tpath = other\n')).toThrow();
    const repo = TestRepo.init();
    expect(withEnv({ ...isolatedEnv(), GIT_CONFIG_PARAMETERS: "'a.b'='c'" }, () => readConfigInProcess(join(repo.dir, '.git'), null))).toBeNull();
  });
});

describe('in-process object reads agree with git cat-file', () => {
  it('reads loose and packed objects, deltas included', () => {
    const repo = TestRepo.init();
    let text = '';
    for (let i = 0; i < 30; i++) {
      text += `line ${i} ${'x'.repeat(i * 37)}\n`;
      repo.commit(`c${i}`, { 'f.txt': text, [`d${i % 3}/g.txt`]: `${i}` });
    }
    const all = repo
      .git('rev-list', '--objects', '--all')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);
    const check = () => {
      const reader = new InProcessObjects(join(repo.dir, '.git/objects'));
      for (const oid of all) {
        const type = repo.git('cat-file', '-t', oid).trim();
        const data = execFileSync('git', ['cat-file', type, oid], { cwd: repo.dir, env: isolatedEnv() });
        const ours = reader.read(oid);
        expect(ours?.type).toBe(type);
        expect(Buffer.compare(ours!.data, data)).toBe(0);
      }
      reader.close();
    };
    check(); // loose
    repo.git('gc', '-q', '--aggressive');
    check(); // packed, deltified
    expect(new InProcessObjects(join(repo.dir, '.git/objects')).read('0'.repeat(40))).toBeNull();
    mkdirSync(join(repo.dir, 'unused'), { recursive: true });
  });
});
