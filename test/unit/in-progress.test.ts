import { describe, expect, it } from 'vitest';
import { isRevertMessage, isSequencerCommand, madeBySequencer } from '../../src/git/in-progress.js';

const H = 'a'.repeat(40);
const O = 'b'.repeat(40);

describe('commits git makes on the way (the commit hooks stay quiet)', () => {
  it.each([
    ['rebase (pick): feat: x', true],
    ['rebase -i (squash): feat: x', true],
    ['cherry-pick: feat: x', true],
    ['revert: Revert "feat: x"', true],
    ["merge side: Merge made by the 'ort' strategy.", true],
    ['pull: Fast-forward', true],
    ['am: feat: x', true],
    ['commit (merge): Merge branch side', true],
    ['commit (cherry-pick): feat: x', true],
    ['commit: feat: x', false],
    ['commit (amend): feat: x', false],
    ['commit (initial): start', false],
    ['rebased: not a sequencer word', false],
  ])('reflog %j: %s', (message, sequencer) => {
    expect(madeBySequencer({ old: O, new: H, message }, H)).toBe(sequencer);
  });

  it('only when the reflog entry is the one that made HEAD', () => {
    expect(madeBySequencer({ old: O, new: O, message: 'cherry-pick: x' }, H)).toBe(false);
    expect(madeBySequencer(null, H)).toBe(false);
  });

  it.each([
    [['git', 'cherry-pick', '--continue'], true],
    [['git', '-c', 'core.editor=true', 'revert', '--continue'], true],
    [['git', '-C', '/tmp/x', 'rebase', 'main'], true],
    [['git', 'commit', '-m', 'rebase'], false],
    [['git', '-c', 'rebase.autosquash=true', 'commit'], false],
  ])('%j runs a sequencer: %s', (argv, want) => {
    expect(isSequencerCommand(argv)).toBe(want);
  });

  it('recognises the message `git revert` writes', () => {
    expect(isRevertMessage(`Revert "feat: x"\n\nThis reverts commit ${H}.\n`)).toBe(true);
    expect(isRevertMessage('feat: x\n\nThis reverts commit abc.\n')).toBe(false);
    expect(isRevertMessage(`feat: x\n\nnot at the start: This reverts commit ${H}.\n`)).toBe(false);
  });
});
