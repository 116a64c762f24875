import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { plainPainter } from '../../src/core/bookmark.js';
import type { Io } from '../../src/app/io.js';

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (l) => err.push(l),
    json: (d) => out.push(JSON.stringify(d)),
    color: false,
    paint: plainPainter,
    stdinIsTTY: true,
  };
  return { io, out, err };
}

describe('errors at the entry point', () => {
  it.each([
    [['write', '--nope'], 2, /unknown option '--nope'/],
    [['bogus'], 2, /not a git handoff command/],
    [['log', '-n', 'x'], 2, /whole number/],
  ])('%j exits %i with exactly one line on stderr', async (argv, code, message) => {
    const { io, err, out } = fakeIo();
    expect(await main(argv as string[], io, '/')).toBe(code);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(message);
    expect(err[0]).not.toContain('\n');
    expect(out).toEqual([]);
  });

  it('adds the JSON error document with --json', async () => {
    const { io, out } = fakeIo();
    expect(await main(['write', '--nope', '--json'], io, '/')).toBe(2);
    expect(JSON.parse(out[0])).toMatchObject({ ok: false, error: { code: 'UsageError' } });
  });
});
