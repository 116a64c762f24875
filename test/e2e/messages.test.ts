/**
 * Messages that say what to do next: each one as a new user meets it, through the
 * packed CLI, with the exit code and the one line that names the cause and the next step.
 */
import { describe, expect, inject, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, handoff } from '../helpers/cli.js';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';

function repoWithCommit(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  return repo;
}

describe('classify: the ways people close a day', () => {
  it.each([
    ["I'm done for the day", 'session-end'],
    ["let's call it a day", 'session-end'],
    ['на сегодня закончили, продолжим завтра', 'session-end'],
    ['好的，今天就这样吧', 'session-end'],
    ['ok thanks, bye', 'ambiguous'],
    ['Спасибо, пока!', 'ambiguous'],
    // the seeds' exclusions hold: task-zone phrases and broad farewells
    ['закрываем эту таску', 'task'],
    ['pause', 'task'],
    ['отбой', 'none'],
    ['разбегаемся', 'none'],
  ])('%j -> %s', (text, cls) => {
    const repo = TestRepo.init();
    const r = handoff(repo, ['classify', text]);
    expect(r.code).toBe(0);
    expect(r.stdout.split(' ')[0].trim()).toBe(cls);
  });

  it('never prints "matched" next to none', () => {
    const repo = TestRepo.init();
    for (const text of ['bye', 'отбой', 'please add a test']) {
      const r = handoff(repo, ['classify', text]);
      expect(r.stdout).toMatch(/^none\b/);
      expect(r.stdout).not.toContain('matched');
      expect(handoff(repo, ['classify', '--json', text]).json).toEqual({ ok: true, class: 'none', matched: null });
    }
    expect(handoff(repo, ['classify', 'bye']).stdout).toBe("none ('bye' is a broad farewell, never a trigger)\n");
  });
});

describe('did you mean', () => {
  it('an unknown command names the nearest one; an unknown option names the nearest and points to the command -h, which lists it', () => {
    const repo = repoWithCommit();
    const cmd = handoff(repo, ['shwo']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toBe("git handoff: 'shwo' is not a git handoff command (did you mean 'show'?); see 'git handoff -h'\n");
    const opt = handoff(repo, ['show', '--jsno']);
    expect(opt.code).toBe(2);
    expect(opt.stderr).toBe("git handoff: show: unknown option '--jsno' (did you mean '--json'?); see 'git handoff show -h'\n");
    expect(handoff(repo, ['show', '-h']).stdout).toContain('--json');
    const w = handoff(repo, ['write', '--sumary', 'x']);
    expect(w.stderr).toContain("(did you mean '--summary'?); see 'git handoff write -h'");
    expect(repo.notesRef()).toBeNull();
    // Nothing near: no guess.
    expect(handoff(repo, ['xyzzy']).stderr).toBe("git handoff: 'xyzzy' is not a git handoff command; see 'git handoff -h'\n");
  });
});

describe('YAML errors name the real cause and line', () => {
  it('an unclosed quote on line 3 is reported on line 3 as an unclosed quote', () => {
    const repo = repoWithCommit();
    for (const input of [
      'status: active\nsession_id: s1\nsummary: "the parser\nguards: []\n',
      "status: active\nsession_id: s1\nsummary: 'the parser\nguards:\n  - no new deps\n",
    ]) {
      const r = handoff(repo, ['write'], { input });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^git handoff: stdin: invalid YAML at line 3: the (double|single)-quoted string that starts here is not closed/);
      expect(r.stderr).not.toContain('deficient indentation');
    }
    const list = handoff(repo, ['write'], { input: 'summary: s\nguards:\n  - "one\n  - two\n' });
    expect(list.stderr).toMatch(/line 3: the double-quoted string that starts here is not closed/);
    // A quoted string that spans lines legitimately is still fine.
    expect(handoff(repo, ['write'], { input: 'summary: "the parser\n  is done"\n' }).code).toBe(0);
    expect(repo.nativeNote()).toContain('summary: the parser is done');
  });

  it('a tab in indentation says tab', () => {
    const repo = repoWithCommit();
    const r = handoff(repo, ['write'], { input: 'summary: x\ncursor:\n\tnext_step: y\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 3: .*tab/);
    expect(repo.notesRef()).toBeNull();
  });
});

describe('messages that say what to do next', () => {
  it('import of a plain Markdown file suggests the format that reads it, and writes nothing', () => {
    const repo = repoWithCommit();
    repo.write('notes.md', '# Notes\n\nSome notes: about the parser.\n\n- one item\n');
    const r = handoff(repo, ['import', 'notes.md']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('notes.md is Markdown but not a .tasks/NEXT_SESSION.md');
    expect(r.stderr).toContain('--format next-session');
    expect(repo.notesRef()).toBeNull();
  });

  it('import - of Markdown on stdin is refused the same way, not stored as unknown fields (found in review)', () => {
    const repo = repoWithCommit();
    for (const input of ['# My notes\n\nowner: bob\nparser: half done\n', '# Notes\n\nSome text here.\n\n- one item\n']) {
      const r = handoff(repo, ['import', '-'], { input });
      expect(r.code, input).toBe(1);
      expect(r.stderr).toContain('stdin is Markdown but not a .tasks/NEXT_SESSION.md');
      expect(repo.notesRef()).toBeNull();
    }
    // a YAML handoff with a comment on top is still YAML
    const yaml = handoff(repo, ['import', '-'], { input: '# today\nsummary: parser done\nowner: bob\n' });
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(handoff(repo, ['show', '--json']).json.handoff.owner).toBe('bob');
  });

  it('accept before review names doc --to-status ready-for-review', () => {
    const repo = repoWithCommit();
    expect(handoff(repo, ['claim', '--work-item', 'local:#3', '--title', 'Parse the config']).code).toBe(0);
    const r = handoff(repo, ['accept', '--work-item', 'local:#3', '--commit', 'HEAD']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "it is in-progress; accept only moves ready-for-review -> done; first move it to review with 'git handoff doc --to-status ready-for-review'",
    );
  });

  it('sync with a mistyped remote lists the configured remotes instead of suggesting to add the typo', () => {
    const repo = repoWithCommit();
    repo.git('remote', 'add', 'origin', '/nowhere/origin.git');
    repo.git('remote', 'add', 'upstream', '/nowhere/upstream.git');
    const r = handoff(repo, ['sync', 'upstrem']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("git handoff: 'upstrem' is not a configured remote (did you mean 'upstream'?); the configured remotes are 'origin', 'upstream'\n");
    expect(r.stderr).not.toContain('git remote add');
  });

  it('an unusable config value gives one warning naming the key and the value used instead', () => {
    const repo = repoWithCommit();
    expect(handoff(repo, ['write', '--summary', 'The parser reads every config file now.']).code).toBe(0);
    repo.git('config', 'handoff.staleDays', 'abc');
    const show = handoff(repo, ['show']);
    expect(show.code).toBe(0);
    expect(show.stderr).toBe("git handoff: warning: handoff.staleDays 'abc' is not a whole number; using 7\n");
    repo.git('config', '--unset', 'handoff.staleDays');
    repo.git('config', '--add', 'handoff.secrets.allow', 'AKIA[0-9');
    const w = handoff(repo, ['write', '--summary', 'The parser handles includes as well.']);
    expect(w.code).toBe(0);
    expect(w.stderr.split('\n').filter((l) => l.includes('handoff.secrets.allow'))).toEqual([
      "git handoff: warning: handoff.secrets.allow 'AKIA[0-9' is not a valid regular expression (Unterminated character class); it is matched as literal text instead",
    ]);
    repo.git('config', '--unset-all', 'handoff.secrets.allow');
    expect(handoff(repo, ['claim', '--work-item', 'local:#1', '--title', 'Parse the config']).code).toBe(0);
    repo.git('config', 'handoff.lang', 'klingon');
    const seed = handoff(repo, ['seed', '--work-item', 'local:#1']);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stderr).toBe("git handoff: warning: handoff.lang 'klingon' is not a language of the templates (en, zh, ru); using en\n");
    expect(seed.stdout).toContain('Goal: Parse the config');
  });

  it('--json uses snake_case keys in doc, policy and the work-item commands (dry_run, never dryRun)', () => {
    const repo = repoWithCommit();
    const W = 'local:#4';
    expect(handoff(repo, ['claim', '--work-item', W, '--title', 'Parse the config']).code).toBe(0);
    const claim = handoff(repo, ['claim', '--work-item', 'local:#5', '--title', 'Write the docs', '--dry-run', '--json']);
    const doc = handoff(repo, ['doc', '--work-item', W, '--session', 's1', '--dry-run', '--json']);
    repo.write('.harness/session-workflow.yaml', 'seed:\n  constraints:\n    - no new dependencies\n');
    const policy = handoff(repo, ['policy', 'approve', '--dry-run', '--json']);
    const status = handoff(repo, ['status', '--json']);
    for (const r of [claim, doc, policy]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.json.dry_run).toBe(true);
    }
    expect(claim.json.work_item).toBe('local:#5');
    expect(status.json.items[0]).toMatchObject({ work_item: W, handoff_doc: null });
    const keys = (v: unknown, skip = false): string[] =>
      v && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => (skip || k === 'receipt' || k === 'receipts' ? [] : [k, ...keys(x)])) : [];
    expect(handoff(repo, ['write', '--summary', 'The config parser is claimed.']).code).toBe(0);
    const others = [['init', '--dry-run'], ['doctor'], ['sweep'], ['log'], ['show'], ['write', '--dry-run', '--summary', 'Nothing yet.']].map((a) =>
      handoff(repo, [...a, '--json']),
    );
    for (const r of [claim, doc, policy, status, ...others]) {
      expect(r.json, r.stderr).toBeDefined();
      for (const k of keys(r.json)) expect(k, JSON.stringify(r.json)).toMatch(/^[a-z0-9_]+$/);
    }
  });
});

describe('the seed names the right repository', () => {
  it("a local item in a work tree named scratch, whose origin is a bare repository on disk named remote: the work tree's name and path", () => {
    const root = tempDir();
    mkdirSync(join(root, 'remote'));
    mkdirSync(join(root, 'scratch'));
    TestRepo.init({ bare: true, dir: join(root, 'remote') });
    const repo = TestRepo.init({ dir: join(root, 'scratch') });
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    repo.git('remote', 'add', 'origin', join(root, 'remote'));
    expect(handoff(repo, ['claim', '--work-item', 'local:#2', '--title', 'Parse the config']).code).toBe(0);
    const seed = handoff(repo, ['seed', '--work-item', 'local:#2']);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stdout).toContain(`Project: scratch\nRepository: ${join(root, 'scratch')}\n`);
    expect(seed.stdout).not.toMatch(/Project: remote|Repository: .*remote/);
    // The document's SEED section is the same prompt.
    expect(handoff(repo, ['doc', '--work-item', 'local:#2', '--session', 's1']).code).toBe(0);
    expect(readFileSync(join(repo.dir, 'docs/HANDOFF-2.md'), 'utf8')).toContain('Project: scratch\n');
  });
});

describe('the demo', () => {
  it('prints commands a user can copy and run (shell-quoted, here-documents), with sample texts that are whole sentences', () => {
    const root = tempDir();
    const env = { ...isolatedEnv(), PATH: cliPath(), TMPDIR: root };
    const demo = spawnSync(process.execPath, [join(inject('packageRoot'), 'scripts/demo.mjs')], { cwd: root, env, encoding: 'utf8' });
    expect(demo.status, demo.stderr).toBe(0);
    // its scratch repository is gone afterwards, unless asked to keep it
    expect(readdirSync(root).filter((f) => f.startsWith('git-handoff-demo-'))).toEqual([]);
    expect(demo.stdout).toMatch(/\nThe scratch repository \S+ is removed now \(npm run demo -- --keep keeps it\)\n$/);
    // The transcript's commands, as a user would paste them, replayed by sh in another folder.
    const script: string[] = ['set -e'];
    const lines = demo.stdout.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith('$ ')) continue;
      const cmd = lines[i].slice(2);
      script.push(cmd.startsWith('cd ') ? `cd "$REPLAY"` : cmd);
      if (cmd.endsWith("<<'EOF'"))
        while (lines[++i] !== 'EOF') {
          script.push(lines[i]);
          expect(i).toBeLessThan(lines.length);
        }
      if (cmd.endsWith("<<'EOF'")) script.push('EOF');
    }
    expect(script.length).toBeGreaterThan(10);
    const replay = join(root, 'replay');
    mkdirSync(replay);
    const sh = spawnSync('sh', ['-c', script.join('\n')], { cwd: root, env: { ...env, REPLAY: replay }, encoding: 'utf8' });
    expect(sh.status, `${sh.stderr}\n${script.join('\n')}`).toBe(0);
    const log = spawnSync('git', ['handoff', 'log', '--json'], { cwd: replay, env, encoding: 'utf8' });
    expect(JSON.parse(log.stdout).versions).toHaveLength(2);
    // Words with spaces or shell characters are quoted; the texts are sentences.
    expect(demo.stdout).toContain("$ git commit -q -m 'feat: a first parser'");
    expect(demo.stdout).toContain("$ git log --notes=handoff -1 '--format=%h %s%n%N'");
    for (const text of [
      'We discussed how quoted fields should be escaped.',
      'The failing test for quoted commas is in.',
      'Make the quoted-comma test pass.',
      'Do not change the public parse() signature.',
    ]) {
      expect(demo.stdout).toContain(text);
    }
  });
});

describe('README', () => {
  const root = () => inject('packageRoot');
  const readme = () => readFileSync(join(root(), 'README.md'), 'utf8');

  it('the Everyday use sample handoff.yaml (docs/commands.md) is accepted as it is, with no warning, and prerequisites and uninstall are there', () => {
    const text = readme();
    const commands = readFileSync(join(root(), 'docs/commands.md'), 'utf8');
    const everyday = commands.slice(commands.indexOf('## Everyday use'), commands.indexOf('\n## ', commands.indexOf('## Everyday use') + 5));
    const sample = /A `handoff\.yaml` to start from[\s\S]*?```yaml\n([\s\S]*?)```/.exec(everyday);
    expect(sample, 'a sample handoff.yaml in Everyday use').not.toBeNull();
    const repo = repoWithCommit();
    const w = handoff(repo, ['write', '--json'], { input: sample![1] });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toBe('');
    expect(w.json.handoff).toMatchObject({ status: 'active', cursor: { next_step: 'Add a failing test for quoted commas.' } });
    const engines = JSON.parse(readFileSync(join(root(), 'package.json'), 'utf8')).engines.node;
    // the floor CI runs the CLI on (scripts/node-versions.mjs, test/slow/node-versions.test.ts)
    expect(engines).toBe('>=20.16.0');
    expect(text).toContain('Node.js >= 20.16');
    // EACCES: a prefix given on the command line, which changes no npm config for good.
    expect(text).not.toMatch(/npm config set prefix/);
    expect(text).toContain('npm install -g --prefix ~/.local');
    expect(text).toContain('npm uninstall -g git-handoff');
    expect(text).toMatch(/The second runs the test suite[\s\S]{0,100}about \d+ minutes? on 2 cores/);
  });

  const npmMajor = Number(spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.split('.')[0]);
  it.skipIf(!(npmMajor >= 11))('npm ci warns about no install script: allowScripts covers every dependency that has one (npm 11)', () => {
    const r = spawnSync('npm', ['install-scripts', 'ls', '--json'], { cwd: root(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).allowScripts).toEqual([]);
  });
});
