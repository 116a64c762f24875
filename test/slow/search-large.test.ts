/**
 * `git handoff search` over the benchmark's history of 5,000 versions (a large
 * history): the right answers from a cold index, then from the warm one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { TestRepo, tempDir } from '../helpers/repo.js';
// @ts-expect-error: a plain .mjs script without types
import { buildFixture } from '../../scripts/bench/fixture.mjs';

const hits = (r: { json: any }) => r.json.results.map((h: any) => [h.version, h.field]);

describe('search over a large history (5,000 versions)', () => {
  let repo: TestRepo;
  let dir: string;
  beforeAll(() => {
    dir = join(tempDir(), 'big');
    buildFixture(dir, { commits: 5100, versions: 5000 });
    repo = new TestRepo(dir, TestRepo.init().env);
  });

  it('finds the right versions newest first from a cold and a warm index, and new ones', () => {
    const r = handoff(repo, ['search', 'case', '4321', '--json', '-n', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.searched).toBe(5000);
    expect(r.json.skipped_invalid).toBe(0);
    expect(r.json.results[0].snippet).toBe('write the failing test for case 4321');
    expect(r.json.results[0].field).toBe('cursor.next_step');
    expect(existsSync(join(dir, '.git/handoff/search-index.jsonl'))).toBe(true);
    expect(handoff(repo, ['search', 'case', '4321', '--json', '-n', '3']).json).toEqual(r.json);
    const all = handoff(repo, ['search', 'quoting', '--json', '-n', '1000']);
    expect(all.json.results).toHaveLength(1000);
    expect(all.json.more).toBe(4000);
    const dates = all.json.results.map((h: any) => h.date);
    expect(dates).toEqual([...dates].sort().reverse());
    const w = handoff(repo, ['write', '--json', '--summary', 'a brand new direction: streaming']);
    expect(w.code, w.stderr).toBe(0);
    const s = handoff(repo, ['search', 'streaming', '--json']);
    expect(hits(s)).toEqual([[w.json.version, 'summary']]);
    expect(s.json.searched).toBe(5001);
  });
});
