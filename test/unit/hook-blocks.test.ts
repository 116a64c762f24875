import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { huskyBlock, withBlock, withoutBlock, withLefthookCommand, withoutLefthookCommands, hasBlock, linesAddedTo } from '../../src/core/hook-blocks.js';
import { coversHandoff } from '../../src/app/install/notes-config.js';

describe('husky blocks', () => {
  it.each(['post-commit', 'prepare-commit-msg', 'post-rewrite'])('the %s block is valid POSIX sh', (hook) => {
    expect(spawnSync('sh', ['-n'], { input: huskyBlock(hook) }).status).toBe(0);
  });

  it('goes first (after a #! line), is replaced in place, and comes out leaving the file as it was', () => {
    const block = huskyBlock('post-commit');
    expect(withBlock('', block)).toBe(block);
    const withShebang = withBlock('#!/usr/bin/env sh\nnpm test\n', block);
    expect(withShebang).toBe(`#!/usr/bin/env sh\n${block}npm test\n`);
    expect(withBlock(withShebang, block)).toBe(withShebang);
    expect(withoutBlock(withShebang)).toBe('#!/usr/bin/env sh\nnpm test\n');
    const stale = withShebang.replace('hook post-commit', 'hook post-commit --old');
    expect(withBlock(stale, block)).toBe(withShebang);
  });

  it('round-trips any script without our markers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string().filter((s) => !s.includes('\n') && !s.includes('git-handoff')),
          { maxLength: 8 },
        ),
        (lines) => {
          const text = lines.join('\n');
          const added = withBlock(text, huskyBlock('post-commit'));
          expect(hasBlock(added)).toBe(true);
          expect(withBlock(added, huskyBlock('post-commit'))).toBe(added);
          expect(withoutBlock(added)).toBe(text === '' ? '' : text);
        },
      ),
    );
  });

  it("the post-rewrite block hands git's list on to the rest of the script", () => {
    const script = `${huskyBlock('post-rewrite')}echo "rest: $(cat)"\n`;
    const r = spawnSync('sh', ['-e', '-c', script, 'post-rewrite', 'amend'], {
      input: 'a b\nc d\n',
      env: { PATH: '/usr/bin:/bin', HANDOFF_SKIP: '1' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('rest: a b\nc d\n');
  });
});

describe('lefthook config edits', () => {
  it('creates the hook section when missing, indenting like the file', () => {
    const out = withLefthookCommand('pre-push:\n    commands:\n        t:\n            run: x\n', 'post-commit');
    expect(out).toBe(
      'pre-push:\n    commands:\n        t:\n            run: x\npost-commit:\n    commands:\n        # >>> git-handoff >>>\n        git-handoff:\n            run: \'[ "${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1 || exit 0; git-handoff hook post-commit </dev/null || :\'\n        # <<< git-handoff <<<\n',
    );
    expect(withoutLefthookCommands(out)).toBe('pre-push:\n    commands:\n        t:\n            run: x\n');
  });

  it('adds `commands:` under a hook that has none, and is idempotent', () => {
    const src = 'post-commit:\n  parallel: true\n';
    const out = withLefthookCommand(src, 'post-commit');
    expect(out).toContain('post-commit:\n  commands:\n    # >>> git-handoff >>>\n');
    expect(out).toContain('  parallel: true\n');
    expect(withLefthookCommand(out, 'post-commit')).toBe(out);
    expect(withoutLefthookCommands(out)).toBe(src);
  });

  it('starts an empty file', () => {
    const out = withLefthookCommand('', 'post-rewrite');
    expect(out).toMatch(/^post-rewrite:\n {2}commands:\n/);
    expect(out).toContain('use_stdin: true');
    expect(withoutLefthookCommands(out)).toBe('');
  });
});

describe('notes config', () => {
  it.each([
    ['refs/notes/handoff', true],
    ['refs/notes/*', true],
    ['refs/notes/hand*', true],
    ['refs/notes/commits', false],
    ['refs/notes/handoff2', false],
    ['refs/notes/handof[f]', true],
    ['refs/notes/hand?ff', true],
    ['refs/notes/handof[!f]', false],
  ])('%s covers refs/notes/handoff: %s', (v, want) => {
    expect(coversHandoff(v)).toBe(want);
  });
});

describe('linesAddedTo (a shim someone edited)', () => {
  const shim = '#!/bin/sh\n# git-handoff hook shim\nrun\nexit 0\n';
  it.each([
    ['unchanged', shim, []],
    ['a line appended', `${shim}echo mine\n`, ['echo mine']],
    ['lines put between ours', '#!/bin/sh\n# git-handoff hook shim\nset -x\nrun\necho mine\nexit 0\n', ['set -x', 'echo mine']],
    ['no final newline', `${shim}echo mine`, ['echo mine']],
    ['one of our lines changed', shim.replace('run', 'run --fast'), null],
    ['one of our lines taken out', shim.replace('exit 0\n', ''), null],
  ])('%s', (_name, text, want) => {
    expect(linesAddedTo(shim, text)).toEqual(want);
  });
});
