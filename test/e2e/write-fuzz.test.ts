/**
 * A short fuzz of `write`: random bytes, random text, mangled YAML and JSON,
 * valid handoffs and odd flags. Every run must succeed or refuse cleanly (one line on
 * stderr, a JSON error, exit 1 or 2, the ref untouched); never an internal error, never
 * a half-written version. Runs in-process through the real entry point for speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli.js';
import type { Io } from '../../src/app/io.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { text, writeInput } from '../helpers/arbitraries.js';

function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  const id = (s: string) => s;
  const io: Io = {
    out: (t) => void out.push(t),
    err: (l) => void err.push(l.endsWith('\n') ? l : `${l}\n`),
    json: (d) => void out.push(`${JSON.stringify(d)}\n`),
    color: false,
    paint: { heading: id, dim: id, warn: id },
    stdinIsTTY: true,
  };
  return { io, out, err };
}

/** Small random edits: what a hand-edited or truncated document looks like. */
const mangled = fc
  .tuple(
    writeInput,
    fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(':', '-', ' ', '\n', '"', "'", '[', '{', '#', '|', '\t', '&', '*', '\u0000', 'é')), {
      maxLength: 4,
    }),
  )
  .map(([doc, edits]) => {
    let s = toCanonicalYaml(doc);
    for (const [at, del, ins] of edits) {
      const i = at % (s.length + 1);
      s = s.slice(0, i) + ins + s.slice(i + del);
    }
    return Buffer.from(s, 'utf8');
  });

const input = fc.oneof(
  fc.uint8Array({ maxLength: 120 }).map((a) => Buffer.from(a)),
  text.map((t) => Buffer.from(t, 'utf8')),
  writeInput.map((d) => Buffer.from(toCanonicalYaml(d), 'utf8')),
  writeInput.map((d) => Buffer.from(JSON.stringify(d), 'utf8')),
  mangled,
  fc.anything().map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8')),
  fc.constantFrom('summary: ' + 'x'.repeat(3000), 'status: done\n---\nstatus: active\n', 'summary: "AKIA' + 'ABCDEFGHIJKLMNOP"\n').map((s) => Buffer.from(s)),
);

const flags = fc.array(
  fc.oneof(
    fc
      .tuple(fc.constantFrom('--status', '--summary', '--next-step', '--tone', '--work-item', '--session', '--pending-question', '--guard'), text)
      .map(([f, v]) => [f, v]),
    fc.constant(['--dry-run']),
  ),
  { maxLength: 3 },
);

describe('fuzz: write only ever succeeds or refuses cleanly', () => {
  const saved = { ...process.env };
  const repo = TestRepo.init();
  const dir = tempDir();
  beforeAll(() => {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, isolatedEnv());
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    repo.git('config', 'handoff.maxBytes', '2048');
  });
  afterAll(() => {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it('on random input and flags', async () => {
    let written = 0;
    const codes = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(input, flags, async (bytes, extra) => {
        const file = join(dir, 'in');
        writeFileSync(file, bytes);
        const before = repo.notesRef();
        const { io, out, err } = captureIo();
        const argv = ['write', '--json', ...(bytes.length ? ['--file', file] : []), ...extra.flat()];
        const code = await main(argv, io, repo.dir);
        codes.set(code, (codes.get(code) ?? 0) + 1);
        const doc = JSON.parse(out.join(''));
        if (code === 0) {
          expect(doc.ok).toBe(true);
          if (doc.version && !doc.unchanged && !doc.dry_run) {
            written++;
            expect(repo.notesRef()).toBe(doc.version);
          } else expect(repo.notesRef()).toBe(before);
          return;
        }
        expect([1, 2], err.join('')).toContain(code);
        expect(err[0]).toMatch(/^git handoff: \S/);
        expect(err.length).toBe(1);
        expect(doc).toEqual({ ok: false, error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) });
        expect(repo.notesRef()).toBe(before);
      }),
      { numRuns: 150, seed: process.env.HANDOFF_FC_SEED ? Number(process.env.HANDOFF_FC_SEED) : undefined },
    );
    // Both outcomes were exercised, and what was written is all there and valid.
    expect(codes.get(0)).toBeGreaterThan(0);
    expect(codes.get(1)).toBeGreaterThan(0);
    const { io, out } = captureIo();
    expect(await main(['log', '--all', '--json'], io, repo.dir)).toBe(0);
    const versions = JSON.parse(out.join('')).versions as { valid: boolean }[];
    expect(versions).toHaveLength(written);
    expect(versions.every((v) => v.valid)).toBe(true);
    repo.fsck();
  });
});
