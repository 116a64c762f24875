import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { shellCommand } from '../../src/core/shell-word.js';

describe('printed commands run as shown', () => {
  it.each([
    [['git', 'handoff', 'doc', '--work-item', 'local:#3', '--session', 'plain-id']],
    [['x', 'two words', "it's", 'a"b', '$HOME', '`cmd`', 'back\\slash', '!bang', '', 'ünï']],
  ])('%j', (args) => {
    const line = shellCommand(args);
    const printed = execFileSync('sh', ['-c', `printf '%s\\0' ${line.split(' ').slice(0).length ? line : ''}`], { encoding: 'utf8' });
    expect(printed.split('\0').slice(0, -1)).toEqual(args);
  });
});
