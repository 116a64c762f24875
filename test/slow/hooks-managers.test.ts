import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, pathWithout, snapshot } from '../helpers/hooks.js';

/** Runs the real husky (this project's devDependency) in the repository, as `npm run prepare` would. */
function husky(repo: TestRepo): void {
  execFileSync(process.execPath, [join(inject('packageRoot'), 'node_modules/husky/bin.js')], { cwd: repo.dir, env: repo.tick(), stdio: 'pipe' });
}

describe('husky', () => {
  it("adds a marked block to .husky/<hook>: husky's hooks and ours both run, ours survive husky reinstalling, uninstall restores", () => {
    const repo = TestRepo.init();
    repo.write('.husky/post-commit', 'echo "husky post-commit ran" >&2\n');
    repo.write('.husky/post-rewrite', 'echo "husky post-rewrite $1: $(wc -l) line(s)" >&2\n');
    repo.commit('chore: start', { 'README.md': 'x\n' });
    husky(repo);
    expect(repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
    const huskyDir = snapshot(join(repo.dir, '.husky/_'));
    const before = snapshot(join(repo.dir, '.husky'));
    const config = readFileSync(join(repo.dir, '.git/config'));

    const init = handoff(repo, ['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('add the git-handoff block to .husky/post-commit');
    expect(init.stdout).toContain('create .husky/prepare-commit-msg with the git-handoff block');
    expect(snapshot(join(repo.dir, '.husky/_'))).toEqual(huskyDir);
    expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
    const block = readFileSync(join(repo.dir, '.husky/post-commit'), 'utf8');
    expect(block).toMatch(/^# >>> git-handoff >>>.*\n.*\n# <<< git-handoff <<<\necho "husky post-commit ran" >&2\n$/);
    expect(handoff(repo, ['init', '--json']).json.changed).toBe(false);

    handoff(repo, ['write', '--summary', 'under husky']);
    const c = commitWithHooks(repo, 'feat: first under husky', { 'a.txt': 'a\n' });
    expect(c.code).toBe(0);
    expect(c.stderr).toContain('husky post-commit ran');
    expect(c.stderr).toMatch(/git-handoff: substantive commit \(the first commit since the last handoff\)/);

    // husky reinstalls itself (npm's `prepare`): .husky/_ is rewritten, our blocks live on.
    husky(repo);
    handoff(repo, ['write', '--summary', 'after husky reinstalled']);
    // Only our post-rewrite carries the note now, so the note on the amended commit proves it ran.
    repo.git('config', '--unset-all', 'notes.rewriteRef');
    const amend = commitWithHooks(repo, 'feat: amended under husky', {}, { args: ['--amend'] });
    expect(amend.code).toBe(0);
    expect(amend.stderr).toContain('husky post-rewrite amend: 1 line(s)');
    expect(repo.nativeNote(amend.head)).toContain('summary: after husky reinstalled');
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handof[f]');
    const next = commitWithHooks(repo, 'feat: next under husky', {}, { args: ['-m', 'z'.repeat(201)] });
    expect(next.stderr).toContain('husky post-commit ran');
    expect(next.stderr).toMatch(/git-handoff: substantive commit/);

    // A teammate without git-handoff: the block does nothing, husky reports no failure.
    const bare = commitWithHooks(repo, 'feat: teammate', {}, { args: ['-m', 'w'.repeat(201)], env: { PATH: pathWithout('git-handoff') } });
    expect(bare.code).toBe(0);
    expect(bare.stderr).toContain('husky post-commit ran');
    expect(bare.stderr + bare.stdout).not.toMatch(/git-handoff|husky - .* failed|not found/);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(snapshot(join(repo.dir, '.husky'), (rel) => rel.startsWith('_/'))).toEqual(
      Object.fromEntries(Object.entries(before).filter(([k]) => !k.startsWith('_/'))),
    );
    expect(readFileSync(join(repo.dir, '.git/config'))).toEqual(config);
  });

  it('a husky hook edited after init loses only our block', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    husky(repo);
    handoff(repo, ['init']);
    const file = join(repo.dir, '.husky/post-commit');
    writeFileSync(file, `${readFileSync(file, 'utf8')}echo mine\n`);
    const r = handoff(repo, ['uninstall']);
    expect(r.stdout).toContain('take our part out of .husky/post-commit (it changed after init)');
    expect(readFileSync(file, 'utf8')).toBe('echo mine\n');
    expect(existsSync(join(repo.dir, '.husky/prepare-commit-msg'))).toBe(false);
  });

  it('a husky hook checked out again (our block gone): doctor reports it and --fix adds the block back', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start', { '.husky/post-commit': 'echo "husky post-commit ran" >&2\n' });
    husky(repo);
    handoff(repo, ['init']);
    repo.git('checkout', '--', '.husky/post-commit');
    const d = handoff(repo, ['doctor', '--json']);
    expect(d.code).toBe(1);
    expect(d.json.findings.map((f: any) => f.message)).toEqual([expect.stringContaining('add the git-handoff block to .husky/post-commit')]);
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    expect(readFileSync(join(repo.dir, '.husky/post-commit'), 'utf8')).toContain('# >>> git-handoff >>>');
  });

  it('an internal error of git-handoff in prepare-commit-msg lets the commit stand (only a strict sweep, status 1, stops it)', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start', { 'cadence/streaming/t.md': '---\ntopic: t\nstatus: active\nfidelity: High\n---\n## one\n' });
    husky(repo);
    handoff(repo, ['init']);
    const bin = tempDir('handoff-failing-');
    writeFileSync(join(bin, 'git-handoff'), '#!/bin/sh\necho "git-handoff: internal error" >&2\nexit 3\n', { mode: 0o755 });
    const c = commitWithHooks(repo, 'feat: despite an internal error', { 'a.txt': 'a\n' }, { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(c.stderr).toContain('git-handoff: internal error');
    expect(c.code).toBe(0);
    writeFileSync(join(bin, 'git-handoff'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const stopped = commitWithHooks(repo, 'feat: stopped', { 'b.txt': 'b\n' }, { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(stopped.code).not.toBe(0);
    expect(stopped.head).toBe(c.head);
  });
});

describe('lefthook (config edits; the real lefthook runs in test/slow/hook-managers.test.ts)', () => {
  it('adds our commands to lefthook-local.yml, never to the shared lefthook.yml; uninstall removes the file it created', () => {
    const repo = TestRepo.init();
    const original = [
      '# lefthook config',
      'pre-commit:',
      '  parallel: true',
      '  commands:',
      '    lint:',
      '      run: npm run lint',
      'post-commit:',
      '  commands:',
      '    notify:',
      '      run: echo committed # keep me',
      '',
    ].join('\n');
    repo.commit('chore: start', { 'README.md': 'x\n', 'lefthook.yml': original });
    const init = handoff(repo, ['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("run 'lefthook install'");
    expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
    expect(readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8')).toBe(original);
    const text = readFileSync(join(repo.dir, 'lefthook-local.yml'), 'utf8');
    expect(text).toContain(
      'post-commit:\n  commands:\n    # >>> git-handoff >>>\n    git-handoff:\n      run: \'[ "${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1 || exit 0; git-handoff hook post-commit </dev/null || :\'\n    # <<< git-handoff <<<\n',
    );
    expect(text).toContain("prepare-commit-msg:\n  commands:\n    # >>> git-handoff >>>\n    git-handoff:\n      run: '[ -d cadence/streaming ] || exit 0;");
    expect(text).toContain(
      'post-rewrite:\n  commands:\n    # >>> git-handoff >>>\n    git-handoff:\n      run: \'[ "${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1 || exit 0; git-handoff hook post-rewrite {1} || :\'\n      use_stdin: true\n',
    );
    // Kept out of git, so teammates never see it.
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(handoff(repo, ['init', '--json']).json.changed).toBe(false);
    handoff(repo, ['uninstall']);
    expect(readFileSync(join(repo.dir, 'lefthook.yml'), 'utf8')).toBe(original);
    expect(existsSync(join(repo.dir, 'lefthook-local.yml'))).toBe(false);
  });

  it('a lefthook-local.yml of the user keeps everything but our commands', () => {
    const repo = TestRepo.init();
    repo.write('.config/lefthook.yaml', 'pre-push:\n  commands:\n    test:\n      run: npm test\n');
    repo.write('lefthook-local.yml', 'commit-msg:\n  commands:\n    lint:\n      run: commitlint\n');
    repo.commit('chore: start', { '.gitignore': 'lefthook-local.yml\n' });
    handoff(repo, ['init']);
    const file = join(repo.dir, 'lefthook-local.yml');
    expect(readFileSync(file, 'utf8')).toContain('git-handoff hook post-commit');
    writeFileSync(file, `${readFileSync(file, 'utf8')}pre-commit:\n  commands:\n    fmt:\n      run: fmt\n`);
    handoff(repo, ['uninstall']);
    expect(readFileSync(file, 'utf8')).toBe('commit-msg:\n  commands:\n    lint:\n      run: commitlint\npre-commit:\n  commands:\n    fmt:\n      run: fmt\n');
    expect(readFileSync(join(repo.dir, '.config/lefthook.yaml'), 'utf8')).toBe('pre-push:\n  commands:\n    test:\n      run: npm test\n');
  });

  it.each(['.lefthook.yml', '.config/lefthook.yml', 'lefthook.json', '.config/lefthook.jsonc', 'lefthook.toml', '.lefthook.toml'])(
    'recognises %s: nothing in .git/hooks, ours in lefthook-local.yml',
    (name) => {
      const repo = TestRepo.init();
      const shared = name.endsWith('.toml')
        ? '[pre-push.commands.test]\nrun = "npm test"\n'
        : name.includes('.json')
          ? '{"pre-push": {"commands": {"test": {"run": "npm test"}}}}\n'
          : 'pre-push:\n  commands:\n    test:\n      run: npm test\n';
      repo.commit('chore: start', { [name]: shared });
      expect(handoff(repo, ['init']).code).toBe(0);
      expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
      expect(readFileSync(join(repo.dir, name), 'utf8')).toBe(shared);
      expect(readFileSync(join(repo.dir, 'lefthook-local.yml'), 'utf8')).toContain('git-handoff hook post-commit');
    },
  );
});
