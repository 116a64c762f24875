import { describe, expect, it } from 'vitest';
import { gitCommandLine } from '../../src/git/argv.js';

// One reader for both hooks that look at the git above them (pre-push: `push`; the commit
// hooks: a sequencer). Its rule: the first git executable in the command line; git's own
// options are skipped, -C and -c with their value; a dashed `git-<command>` names the command.
describe('git’s command in another process’s command line', () => {
  it.each([
    [['git', 'push', '-n'], { command: 'push', args: ['-n'] }],
    [['/usr/bin/git', '-C', '/x', '-c', 'a.b=c', '--no-pager', 'cherry-pick', '--continue'], { command: 'cherry-pick', args: ['--continue'] }],
    [['git', '-c', '-odd-value', 'revert'], { command: 'revert', args: [] }],
    [['/usr/lib/git-core/git-push', '--dry-run'], { command: 'push', args: ['--dry-run'] }],
    [['git', 'commit', '-m', 'git-push'], { command: 'commit', args: ['-m', 'git-push'] }],
    [['node', '/opt/bin/git-handoff', 'hook', 'pre-push'], { command: 'handoff', args: ['hook', 'pre-push'] }],
    [['git', '--no-pager'], null],
    [['sh', '-e', '.husky/pre-push'], null],
    [[], null],
  ])('%j', (argv, want) => {
    expect(gitCommandLine(argv)).toEqual(want);
  });
});
