import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';

describe('the commit message of a version', () => {
  it('keeps control characters of the summary (a YAML escape) out of the message, so fsck --strict passes', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    const w = handoff(repo, ['write', '--json'], { input: 'summary: "nul \\0 here\\u0007 and bell"\n' });
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.summary).toBe('nul \u0000 here\u0007 and bell');
    const subject = repo.git('log', '-1', '--format=%s', 'refs/notes/handoff');
    expect(subject).toMatch(/: nul +here +and bell\n$/);
    expect(subject.trimEnd()).not.toMatch(/[\u0000-\u001f]/);
    repo.fsck();
  });
});
