/**
 * The same content is always stored as the same bytes. The fast YAML reader
 * used to keep trailing spaces, read `key : v` as the key "key ", strip U+3000 and U+00A0
 * and take `1234e56` for a string, while one unrelated comment line (which sends a
 * document to js-yaml) changed what was stored, or whether it was accepted at all.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { load, CORE_SCHEMA } from 'js-yaml';
import { parseSubset } from '../../src/core/fast-yaml.js';

const checkedParse = (t: string) => load(t, { schema: CORE_SCHEMA });

const inputs = [
  'summary: s\nguards:\n  - keep tests green  \n',
  'summary : s\n',
  'summary: \u3000wide\u3000\n',
  'summary: \u00a0nbsp\u00a0\n',
  'summary: s\nsoft_context:\n  notes:\n    - 1234e56\n',
];

describe('one stdin, with or without an unrelated comment, is stored as the same bytes', () => {
  it.each(inputs)('%j', (text) => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    const plain = handoff(repo, ['write', '--json'], { input: text });
    const commented = handoff(repo, ['write', '--json'], { input: `# written by hand\n${text}` });
    // Either both are refused alike, or the second is "unchanged": the same content.
    expect(commented.code).toBe(plain.code);
    if (plain.code !== 0) {
      expect(commented.stderr).toBe(plain.stderr);
      return;
    }
    expect(commented.json.unchanged, commented.stdout).toBe(true);
    expect(commented.json.handoff).toEqual(plain.json.handoff);
    // And the stored note holds what js-yaml reads (YAML strips only spaces and tabs).
    const stored = repo.nativeNote()!;
    expect(stored).not.toMatch(/green {2}"|"summary "/);
    // What we store is canonical, so reading it back (show, every hook) stays on the fast path.
    expect(parseSubset(stored)).toEqual(checkedParse(stored));
  });
});
