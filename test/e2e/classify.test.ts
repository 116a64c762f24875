import { describe, expect, it } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('git handoff classify', () => {
  it('answers in JSON and in one line, from TEXT or stdin, inside or outside a repository', () => {
    const repo = TestRepo.init();
    expect(handoff(repo, ['classify', '--json', 'ок,', 'ЗАВЕРШАЕМ', 'СЕССИЮ!']).json).toEqual({ ok: true, class: 'session-end', matched: 'завершаем сессию' });
    expect(handoff(repo, ['classify', "let's wrap up"]).stdout).toBe("ambiguous (matched: let's wrap up)\n");
    expect(handoff(repo, ['classify', '--json'], { input: '收工吧\n' }).json).toEqual({ ok: true, class: 'ambiguous', matched: '收工' });
    expect(handoff(repo, ['classify', 'fix the session end handler']).stdout).toBe('none\n');
    const outside = handoff(repo, ['classify', '--json', 'pause'], { cwd: tempDir() });
    expect(outside.json).toEqual({ ok: true, class: 'task', matched: 'pause' });
    expect(handoff(repo, ['classify']).code).toBe(2);
  });

  it("uses the policy's phrase lists once the policy is approved", () => {
    const repo = TestRepo.init();
    repo.commit('feat: x');
    repo.write('.harness/session-workflow.yaml', 'phrases:\n  session_end: [шабаш]\n');
    const before = handoff(repo, ['classify', '--json', 'шабаш']);
    expect(before.json).toEqual({ ok: true, class: 'none', matched: null });
    expect(before.stderr).toMatch(/is not approved; using the built-in phrase lists/);
    expect(handoff(repo, ['policy', 'approve']).code).toBe(0);
    expect(handoff(repo, ['classify', '--json', 'ну всё, шабаш']).json).toEqual({ ok: true, class: 'session-end', matched: 'шабаш' });
    expect(handoff(repo, ['classify', '--json', 'завершаем сессию']).json.class).toBe('ambiguous');
  });
});
