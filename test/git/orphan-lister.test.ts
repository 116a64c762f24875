/**
 * doctor's lister (git lists the notes tree, the listing goes to git as bytes) against the
 * in-process one it replaced: `findOrphanNotes(repo, await listNotes(...))`, on notes trees
 * laid out every way (flat, one and two fan-out levels, a note at two depths, entries that
 * are no notes, submodule entries) over commits that are here, unreachable or gone, and
 * objects that are no commits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { listNotes } from '../../src/git/notes-tree.js';
import { findOrphanNotes, findOrphanNotesInTree, noteLister } from '../../src/git/orphans.js';

/** noteLister over a whole listing at once. */
function noteTargets(listing: Buffer): { targets: Buffer; count: number; pathAt: (i: number) => string } {
  const l = noteLister();
  l.feed(listing);
  l.end();
  return l.result();
}

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});

type Entry = { mode: string; type: string; oid: string };

/** A tree (written by `git mktree`) holding `files` at their paths. */
function mktree(t: TestRepo, files: Map<string, Entry>): string {
  const here = new Map<string, Entry>();
  const dirs = new Map<string, Map<string, Entry>>();
  for (const [path, e] of files) {
    const slash = path.indexOf('/');
    if (slash < 0) here.set(path, e);
    else {
      const d = path.slice(0, slash);
      if (!dirs.has(d)) dirs.set(d, new Map());
      dirs.get(d)!.set(path.slice(slash + 1), e);
    }
  }
  for (const [d, sub] of dirs) if (!here.has(d)) here.set(d, { mode: '040000', type: 'tree', oid: mktree(t, sub) });
  const input = [...here].map(([name, e]) => `${e.mode} ${e.type} ${e.oid}\t${name}\n`).join('');
  const r = t.gitRaw(['mktree', '--missing'], { input });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe("doctor's notes lister", () => {
  const t = TestRepo.init();
  const live = [t.commit('feat: one', { 'a.txt': 'a\n' }), t.commit('feat: two', { 'b.txt': 'b\n' })];
  t.git('checkout', '-q', '-b', 'gone');
  const unreachable = [t.commit('feat: three'), t.commit('feat: four')];
  t.git('checkout', '-q', 'main');
  t.git('branch', '-D', 'gone');
  const blob = t.git('rev-parse', 'HEAD:a.txt').trim();
  const tree = t.git('rev-parse', 'HEAD^{tree}').trim();
  const missing = ['1'.repeat(40), 'abcdef'.repeat(6) + 'abcd'];
  const note = t.gitRaw(['hash-object', '-w', '--stdin'], { input: 'summary: s\n' }).stdout.trim();
  const pool = [...live, ...unreachable, ...missing, blob, tree];

  /** The ways a target's note can be laid out, and entries that are no notes. */
  const layouts = [
    (x: string) => x,
    (x: string) => `${x.slice(0, 2)}/${x.slice(2)}`,
    (x: string) => `${x.slice(0, 2)}/${x.slice(2, 4)}/${x.slice(4)}`,
    (x: string) => `${x.slice(0, 2).toUpperCase()}/${x.slice(2)}`,
    (x: string) => `${x.slice(0, 3)}/${x.slice(3)}`,
    (x: string) => `${x.slice(0, 2)}/${x.slice(2, 39)}`,
    (x: string) => `${x}0`,
    (x: string) => `${x.slice(0, 2)}/${x.slice(2)}/inner`,
    () => 'README',
  ];
  const entry = fc.record({
    target: fc.constantFrom(...pool),
    layout: fc.nat(layouts.length - 1),
    kind: fc.constantFrom('blob', 'blob', 'blob', 'gitlink'),
  });

  async function both(files: Map<string, Entry>) {
    const root = mktree(t, files);
    const repo = await Repo.discover(t.dir);
    try {
      const listed = await listNotes(repo.objects, root);
      const expected = await findOrphanNotes(repo, listed);
      const got = await findOrphanNotesInTree(repo, root);
      return { expected, got: got.orphans, noted: got.noted(), listedTargets: new Set(listed.map((n) => n.target)) };
    } finally {
      repo.close();
    }
  }

  it('finds the orphans the in-process lister finds, in the same order, on random notes trees', async () => {
    let orphansSeen = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 0, maxLength: 12 }), async (entries) => {
        const files = new Map<string, Entry>();
        // An unreachable and a missing commit's note in every tree, so every run has orphans to compare.
        const fixed = [
          { target: unreachable[0], layout: 1, kind: 'blob' },
          { target: missing[0], layout: 0, kind: 'blob' },
        ];
        for (const e of [...fixed, ...entries]) {
          const path = layouts[e.layout](e.target);
          // A path that is also a folder of another entry cannot be both: the first one stays.
          if ([...files.keys()].some((p) => p.startsWith(`${path}/`) || path.startsWith(`${p}/`))) continue;
          // (a submodule entry names a commit this repository lacks, or one it has)
          const link = e.target === live[0] ? live[1] : '2'.repeat(40);
          files.set(path, e.kind === 'gitlink' ? { mode: '160000', type: 'commit', oid: link } : { mode: '100644', type: 'blob', oid: note });
        }
        const { expected, got, noted, listedTargets } = await both(files);
        orphansSeen += expected.length;
        expect(got).toEqual(expected);
        expect(noted).toEqual(listedTargets);
      }),
      { numRuns: 20 },
    );
    expect(orphansSeen).toBeGreaterThanOrEqual(40);
  });

  it('reads a fanned-out tree of many notes, all live, as the in-process lister does', async () => {
    const files = new Map<string, Entry>();
    for (const x of live) files.set(`${x.slice(0, 2)}/${x.slice(2)}`, { mode: '100644', type: 'blob', oid: note });
    for (const x of unreachable) files.set(x, { mode: '100644', type: 'blob', oid: note });
    const { expected, got } = await both(files);
    expect(got).toEqual(expected);
    expect(got.map((o) => [o.target, o.why])).toEqual(unreachable.map((x) => [x, 'unreachable']).sort());
  });

  it('keeps listNotes’s rule for what a note path is', () => {
    const paths = [
      'ab/' + 'c'.repeat(38),
      'a'.repeat(40),
      'ab/cd/' + 'e'.repeat(36),
      'AB/' + 'c'.repeat(38),
      'abc/' + 'd'.repeat(37),
      'ab/' + 'c'.repeat(37),
      'README',
      '',
    ];
    const listing = Buffer.from(paths.map((p) => `${p}\0`).join(''));
    const { targets, count, pathAt } = noteTargets(listing);
    expect(count).toBe(3);
    expect(targets.toString()).toBe(`ab${'c'.repeat(38)}\n${'a'.repeat(40)}\nabcd${'e'.repeat(36)}\n`);
    expect([0, 1, 2].map(pathAt)).toEqual(paths.slice(0, 3));
  });

  it('lists the same notes whatever pieces the listing comes in', () => {
    const path = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{40}$/),
      fc.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{38}$/),
      fc.stringMatching(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{36}$/),
      fc.stringMatching(/^[0-9a-fA-F/]{1,44}$/),
      fc.constantFrom('README', 'é/x', ''),
    );
    fc.assert(
      fc.property(fc.array(path, { maxLength: 8 }), fc.array(fc.nat(400), { maxLength: 6 }), fc.boolean(), (paths, cuts, lastEnded) => {
        const text = paths.join('\0') + (lastEnded && paths.length ? '\0' : '');
        const listing = Buffer.from(text);
        const whole = noteTargets(listing);
        const l = noteLister();
        const at = [...new Set(cuts.map((c) => c % (listing.length + 1)))].sort((a, b) => a - b);
        const sent: Buffer[] = [];
        let from = 0;
        for (const c of [...at, listing.length]) {
          sent.push(l.feed(listing.subarray(from, c)));
          from = c;
        }
        sent.push(l.end());
        const pieces = l.result();
        expect(Buffer.concat(sent)).toEqual(whole.targets);
        expect(pieces.targets).toEqual(whole.targets);
        expect(pieces.count).toBe(whole.count);
        for (let i = 0; i < whole.count; i++) expect(pieces.pathAt(i)).toBe(whole.pathAt(i));
        // and the rule itself, said once more over whole paths
        const notes = paths.filter((p) => /^([0-9a-f]{2}\/)*[0-9a-f]+$/.test(p) && p.replace(/\//g, '').length === 40);
        expect(whole.count).toBe(notes.length);
        expect(whole.targets.toString()).toBe(notes.map((p) => `${p.replace(/\//g, '')}\n`).join(''));
      }),
      { numRuns: 1000 },
    );
  });
});
