import { beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { HandoffStore } from '../../src/git/handoff-store.js';
import { VersionReader } from '../../src/history/reader.js';
import { NOTES_REF } from '../../src/git/repo.js';
import { findNote, listNotes, setNote, writePath } from '../../src/git/notes-tree.js';
import { EMPTY_TREE_OID, parseCommit, parseTrailers, serializeCommit, type Signature } from '../../src/git/objects.js';
import type { Identities } from '../../src/git/identity.js';
import { MemoryRepo } from '../helpers/memory-store.js';

const target = (s: string) => createHash('sha1').update(s).digest('hex');
let clock = 1767225600;
const sig = (): Signature => ({ name: 'Ada', email: 'ada@example.com', timestamp: clock++, tz: '+0000' });
const ids = (): Identities => ({ author: sig(), committer: sig() });

let repo: MemoryRepo;
let store: HandoffStore;
let reader: VersionReader;
beforeEach(async () => {
  repo = await MemoryRepo.create();
  store = new HandoffStore(repo.asRepo());
  reader = new VersionReader(repo.asRepo());
});

/** Our way: a version commit through HandoffStore.commit. */
async function writeVersion(t: string, yaml: string, branch: string | null = 'main'): Promise<string> {
  const blob = await repo.objects.blob(yaml);
  return store.commit('version', (root) => setNote(repo.objects, root, t, blob), {
    subject: `handoff ${t.slice(0, 7)}`,
    trailers: { 'Handoff-Target': t, ...(branch ? { 'Handoff-Branch': branch } : {}) },
    identities: ids(),
  });
}

/** What native `git notes add -f` does: a commit with no trailer, the ref moved without an old-value check. */
async function nativeAdd(t: string, text: string): Promise<string> {
  const tip = repo.refs.get(NOTES_REF) ?? null;
  const root = tip ? parseCommit((await repo.objects.read(tip))!.data).tree : EMPTY_TREE_OID;
  const tree = await setNote(repo.objects, root, t, await repo.objects.blob(text));
  const s = sig();
  const oid = await repo.objects.write(
    'commit',
    serializeCommit({ tree, parents: tip ? [tip] : [], author: s, committer: s, message: "Notes added by 'git notes add'\n" }),
  );
  repo.refs.set(NOTES_REF, oid);
  return oid;
}

async function collect<T>(gen: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

describe('HandoffStore.commit', () => {
  it('appends a commit with the Handoff-Kind and Handoff-Target trailers, compare-and-swap from nothing', async () => {
    const t = target('c1');
    const v = await writeVersion(t, 'summary: one\n');
    expect(repo.refs.get(NOTES_REF)).toBe(v);
    expect(repo.reflog).toEqual([{ ref: NOTES_REF, old: null, new: v, message: 'handoff: version' }]);
    const c = parseCommit((await repo.objects.read(v))!.data);
    expect(c.parents).toEqual([]);
    expect(parseTrailers(c.message)).toEqual({ 'Handoff-Kind': 'version', 'Handoff-Target': t, 'Handoff-Branch': 'main' });
    const v2 = await writeVersion(t, 'summary: two\n');
    expect(parseCommit((await repo.objects.read(v2))!.data).parents).toEqual([v]);
    expect(repo.reflog[1]).toMatchObject({ old: v, new: v2 });
  });

  it('rebuilds on the new tip when another writer lands between its read and its swap', async () => {
    const [a, b] = [target('race a'), target('race b')];
    await writeVersion(a, 'summary: base\n');
    let competitor: string | null = null;
    repo.beforeCas = async () => {
      if (competitor) return;
      repo.beforeCas = null;
      competitor = await nativeAdd(b, 'summary: native, landed first\n');
    };
    const ours = await writeVersion(a, 'summary: ours\n');
    expect(repo.casAttempts).toBe(3); // base, the lost attempt, the retry
    const c = parseCommit((await repo.objects.read(ours))!.data);
    expect(c.parents).toEqual([competitor]);
    const notes = await listNotes(repo.objects, c.tree);
    expect(notes.map((n) => n.target).sort()).toEqual([a, b].sort());
    const versions = await collect(store.versions());
    expect(versions.map((v) => [v.id, v.target, v.native])).toEqual([
      [ours, a, false],
      [competitor, b, true],
      [expect.any(String), a, false],
    ]);
  });

  it('never loses a version between many interleaved writers of ours', async () => {
    const t = target('many');
    // every attempt of every writer is preceded by another writer's success once
    let pending = 5;
    repo.beforeCas = async () => {
      if (pending-- > 0) await writeVersion(t, `summary: interloper ${pending}\n`);
    };
    await writeVersion(t, 'summary: patient\n');
    repo.beforeCas = null;
    const summaries: string[] = [];
    for await (const v of store.versions()) summaries.push(String((await store.read(v)).handoff.summary));
    expect(summaries).toHaveLength(6);
    expect(summaries[0]).toBe('patient');
    expect(new Set(summaries).size).toBe(6);
  });

  it('writes bookkeeping commits that are not versions', async () => {
    const t = target('bk');
    const v = await writeVersion(t, 'summary: v\n');
    const blob = await repo.objects.blob('{"id":"r"}');
    await store.commit('receipt', (root) => writePath(repo.objects, root, 'receipts/r.json', blob), { subject: 'receipt r', identities: ids() });
    expect((await collect(store.versions())).map((x) => x.id)).toEqual([v]);
    expect((await collect(store.walk())).length).toBe(2);
  });
});

describe('versions, latest, resolve', () => {
  it('reads native commits as versions with their target, and skips a native removal', async () => {
    const [a, b] = [target('n a'), target('n b')];
    const n1 = await nativeAdd(a, 'summary: native a\nbranch: main\n');
    const n2 = await nativeAdd(b, 'summary: native b\n');
    // native `git notes remove`: the tree loses a note; not a version
    const tip = repo.refs.get(NOTES_REF)!;
    const tree = await setNote(repo.objects, parseCommit((await repo.objects.read(tip))!.data).tree, a, null);
    const s = sig();
    repo.refs.set(
      NOTES_REF,
      await repo.objects.write('commit', serializeCommit({ tree, parents: [tip], author: s, committer: s, message: 'Notes removed\n' })),
    );
    const vs = await collect(store.versions());
    expect(vs.map((v) => [v.id, v.target, v.native, v.branch])).toEqual([
      [n2, b, true, undefined],
      [n1, a, true, undefined],
    ]);
    // a native note names its branch in its content, if at all
    const r = await store.read(vs[1]);
    expect(r).toMatchObject({ valid: true, branch: 'main', handoff: { summary: 'native a', branch: 'main' } });
    expect((await store.read(vs[0])).branch).toBeNull();
    expect((await reader.latest({ branch: 'main' })).version?.id).toBe(n1);
  });

  it('finds the latest version of the current branch, else the newest overall', async () => {
    const t = target('branches');
    const m1 = await writeVersion(t, 'summary: main one\n', 'main');
    const f1 = await writeVersion(t, 'summary: feature one\n', 'feature');
    const d1 = await writeVersion(t, 'summary: detached\n', null);
    expect((await reader.latest({ branch: 'main' })).version?.id).toBe(m1);
    expect((await reader.latest({ branch: 'feature' })).version?.id).toBe(f1);
    expect((await reader.latest({ branch: null })).version?.id).toBe(d1);
    const other = await reader.latest({ branch: 'nobody' });
    expect(other).toMatchObject({ fallback: true });
    expect(other.version?.id).toBe(d1);
    expect((await reader.latest({ all: true })).version?.id).toBe(d1);
  });

  it('skips an invalid version on the way to the latest valid one', async () => {
    const t = target('invalid');
    const good = await writeVersion(t, 'summary: good\n');
    const bad = await writeVersion(t, 'summary: [not, a, string]\n');
    const worse = await writeVersion(t, 'summary: "unterminated\n');
    const r = await reader.latest({ branch: 'main' });
    expect(r.version?.id).toBe(good);
    expect(r.skipped.map((s) => s.id)).toEqual([worse, bad]);
    expect(r.skipped[0].problems[0]).toMatch(/invalid YAML/);
    expect(r.skipped[1].problems[0]).toMatch(/summary: must be a string/);
  });

  it('resolves a full id, a unique prefix and ~N, and refuses the rest', async () => {
    const t = target('resolve');
    const vs: string[] = [];
    for (const n of [0, 1, 2, 3]) vs.push(await writeVersion(t, `summary: v${n}\n`));
    const sel = { branch: 'main' };
    expect((await reader.resolve(vs[1], sel)).id).toBe(vs[1]);
    expect((await reader.resolve(vs[2].slice(0, 10).toUpperCase(), sel)).id).toBe(vs[2]);
    expect((await reader.resolve('~0', sel)).id).toBe(vs[3]);
    expect((await reader.resolve('~3', sel)).id).toBe(vs[0]);
    await expect(reader.resolve('~4', sel)).rejects.toThrow(/no version ~4/);
    await expect(reader.resolve('0000000', sel)).rejects.toThrow(/no version matches/);
    await expect(reader.resolve('HEAD', sel)).rejects.toThrow(/not a version name/);
    // an ambiguous prefix: find two ids sharing a first character
    const byFirst = new Map<string, string[]>();
    for (const v of vs) byFirst.set(v[0], [...(byFirst.get(v[0]) ?? []), v]);
    const shared = [...byFirst.values()].find((l) => l.length > 1);
    if (shared) {
      let p = 1;
      while (shared[0].slice(0, p + 1) === shared[1].slice(0, p + 1)) p++;
      if (p >= 4) await expect(reader.resolve(shared[0].slice(0, p), sel)).rejects.toThrow(/ambiguous/);
    }
  });

  it("finds the note of a version in that version's own tree", async () => {
    const t = target('own tree');
    const v1 = await writeVersion(t, 'summary: first\n');
    await writeVersion(t, 'summary: second\n');
    const first = (await collect(store.versions())).find((v) => v.id === v1)!;
    expect((await store.read(first)).handoff.summary).toBe('first');
    expect(await findNote(repo.objects, first.commit.tree, t)).not.toBeNull();
  });
});
