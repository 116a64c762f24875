import { describe, expect, it } from 'vitest';
import { isDryRun, pushArgs } from '../../src/git/push-process.js';

describe('is the git push above the pre-push hook a dry run', () => {
  it.each([
    [['git', 'push', '--dry-run', 'origin', 'main'], true],
    [['/usr/bin/git', 'push', '-n'], true],
    [['git', 'push', '-nv', 'origin'], true],
    [['git', 'push', '-vu', 'origin', 'main'], false],
    [['git', 'push', 'origin', '--', '-n'], false],
    [['git', '-C', 'x', 'push', 'origin'], false],
    [['git', '-c', 'a.b=c', '--no-pager', 'push', '-n'], true],
    [['/usr/lib/git-core/git-push', '--dry-run'], true],
    [['git', 'pull', '--dry-run'], null],
    [['sh', '-e', '.husky/pre-push'], null],
  ])('%j', (argv, expected) => {
    const args = pushArgs(argv as string[]);
    expect(args === null ? null : isDryRun(args)).toBe(expected);
  });
});
