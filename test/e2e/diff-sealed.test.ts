/**
 * `diff` of versions the reader cannot decrypt (issue 26: a version they cannot read is shown
 * as one line): it names which of the two is sealed and why, and compares nothing, rather than
 * comparing empty handoffs ("(no changes)") or listing every field of the readable one as
 * added. The text, --json and MCP share diffOf.
 */
import { describe, expect, it } from 'vitest';
import { Fleet } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { asUser, newKey } from '../helpers/privacy.js';

describe('diff over versions encrypted for others', () => {
  it('names the sealed versions in one line each and compares nothing; with the key it compares', () => {
    const fleet = new Fleet(2);
    const [ada, bob] = [asUser(fleet.clones[0], 'ada'), asUser(fleet.clones[1], 'bob')];
    newKey(ada);
    const w = (summary: string, ...flags: string[]) => {
      const r = handoff(ada, ['write', '--json', '--summary', summary, ...flags]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).version as string;
    };
    const shared = w('Shared plan: parser first.');
    const p1 = w('Private doubt one about the parser.', '--private');
    const p2 = w('Private doubt two about the parser.', '--private');
    expect(handoff(ada, ['sync', 'origin']).code).toBe(0);
    expect(handoff(bob, ['sync', 'origin']).code).toBe(0);

    const both = handoff(bob, ['diff']);
    expect(both.code, both.stderr).toBe(0);
    const lines = both.stdout.split('\n');
    expect(lines[0]).toBe(`diff ${p1.slice(0, 12)}..${p2.slice(0, 12)}`);
    expect(lines[1]).toMatch(new RegExp(`^version ${p1.slice(0, 12)}: encrypted for 1 reader, not you; written by ada on main at \\S+Z$`));
    expect(lines[2]).toMatch(new RegExp(`^version ${p2.slice(0, 12)}: encrypted for 1 reader, not you; written by ada on main at \\S+Z$`));
    expect(lines.slice(3)).toEqual(['(not compared: neither version can be read here)', '']);
    expect(both.stdout).not.toContain('(no changes)');

    const one = handoff(bob, ['diff', shared, p2]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).not.toContain('summary');
    expect(one.stdout.split('\n').slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^version ${p2.slice(0, 12)}: encrypted for 1 reader, not you;`)),
      '(not compared: one of the two versions can be read here)',
      '',
    ]);

    const json = JSON.parse(handoff(bob, ['diff', '--json', shared, p2]).stdout);
    expect(json).toMatchObject({ ok: true, old: shared, new: p2, changes: [] });
    expect(json.unreadable).toEqual([{ version: p2, reason: expect.stringMatching(/^encrypted for 1 reader, not you;/) }]);

    // The writer holds the key: the same pair is compared as before.
    const mine = handoff(ada, ['diff', p1, p2]);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toContain('Private doubt two');
    expect(mine.stdout).not.toContain('not compared');
    expect(JSON.parse(handoff(ada, ['diff', '--json', p1, p2]).stdout).unreadable).toBeUndefined();
  });
});
