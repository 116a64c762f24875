/**
 * A lone surrogate (JSON's `"\ud800"`, YAML's `"\ud800"`) is not text: stored as UTF-8 it
 * would become U+FFFD, so the same input would append a new version every time it is
 * written. It is refused with the field named, as invalid UTF-8 is; a real pair is text.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('a lone surrogate in the input', () => {
  it('is refused naming the field (JSON and YAML, known and unknown fields, keys), and nothing is written', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': '1\n' });
    const cases: [string, string][] = [
      ['{"summary":"bad \\ud800"}', 'summary'],
      ['{"summary":"ok","cursor":{"next_step":"x \\udfff y"}}', 'cursor.next_step'],
      ['{"summary":"ok","guards":["fine","\\udc00"]}', 'guards[1]'],
      ['{"summary":"ok","team_note":"\\ud83d"}', 'team_note'],
      ['summary: "bad \\ud800"\n', 'summary'],
    ];
    for (const [input, field] of cases) {
      const r = handoff(repo, ['write', '--json'], { input });
      expect(r.code, `${input}\n${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^git handoff: invalid handoff: ${field.replace(/[[\]]/g, '\\$&')} holds a lone surrogate \\(\\\\u[0-9a-f]{4}\\)`));
      expect(r.json.error.data.problems[0].field).toBe(field);
      expect(repo.notesRef()).toBeNull();
    }
    const key = handoff(repo, ['write', '--json'], { input: '{"summary":"ok","k\\ud800":"v"}' });
    expect(key.code, key.stderr).toBe(1);
    expect(key.json.error.data.problems[0].field).toBe('"k\\ud800"');
    expect(repo.notesRef()).toBeNull();
    const pair = handoff(repo, ['write', '--json'], { input: '{"summary":"a pair is text \\ud83d\\ude00"}' });
    expect(pair.code, pair.stderr).toBe(0);
    expect(pair.json.handoff.summary).toBe('a pair is text 😀');
    const again = handoff(repo, ['write', '--json'], { input: '{"summary":"a pair is text \\ud83d\\ude00"}' });
    expect(again.json.unchanged, again.stdout).toBe(true);
  });
});
