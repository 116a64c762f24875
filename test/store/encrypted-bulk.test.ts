/**
 * Listings over encrypted versions (issue 26): the reader's latest is asked only when a
 * listing meets a version the reader can use (VersionReader.lateHeads), so over versions
 * encrypted for others a reader without the key streams log and the view once (the store's
 * walk read every note first, to find that none was usable, then the stream read them all
 * again), and ~N or a first few read only what they name. The order is the one reader's.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { withRepo } from '../../src/app/repository.js';
import { selectBulk } from '../../src/history/bulk.js';
import { VersionReader, type Selection } from '../../src/history/reader.js';
import { HandoffStore } from '../../src/git/handoff-store.js';
import { searchHandoffs } from '../../src/app/search.js';

const ada = { XDG_CONFIG_HOME: tempDir('handoff-xdg-ada-') };
const carol = { XDG_CONFIG_HOME: tempDir('handoff-xdg-carol-') };
const repo = TestRepo.init();

/** Runs `use` in this process as `who` (the identity is found through XDG_CONFIG_HOME, git through the test's environment). */
async function as<T>(who: NodeJS.ProcessEnv, use: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, repo.env, who);
  try {
    return await use();
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const ids = async (gen: AsyncGenerator<{ id: string; readable: boolean }>) => {
  const out: string[] = [];
  for await (const v of gen) out.push(`${v.id}:${v.readable}`);
  return out;
};

/** The bulk listing and the store's walk, each with how many notes the store read for it. */
async function listings(sel: Selection) {
  return withRepo(repo.dir, async (r) => {
    const read = vi.spyOn(HandoffStore.prototype, 'read');
    const bulk = await ids((await selectBulk(r, sel)).versions);
    const bulkReads = read.mock.calls.length;
    const walked = await ids((await new VersionReader(r).select(sel)).versions);
    read.mockRestore();
    return { bulk, bulkReads, walked };
  });
}

describe('log over versions encrypted for others', () => {
  beforeAll(() => {
    expect(handoff(repo, ['key', 'new'], { env: ada }).code).toBe(0);
    for (let i = 1; i <= 4; i++) {
      repo.commit(`feat: step ${i}`);
      const w = handoff(repo, ['write', '--private', '--summary', `PRIVATE-${i}`], { env: ada });
      expect(w.code, w.stderr).toBe(0);
    }
  });
  afterEach(() => vi.restoreAllMocks());

  it('without the key: streamed once, no note read by the walk, the same versions in the same order', async () => {
    for (const sel of [{ branch: 'main' }, { all: true }] as Selection[]) {
      const { bulk, bulkReads, walked } = await as(carol, () => listings(sel));
      expect(bulk).toHaveLength(4);
      expect(bulk.every((v) => v.endsWith(':false'))).toBe(true);
      expect(bulk).toEqual(walked);
      expect(bulkReads).toBe(0);
    }
  });

  it('without the key: ~1 (diff, show --version) reads only the versions up to it, as a first few do (the log of MCP)', async () => {
    await as(carol, () =>
      withRepo(repo.dir, async (r) => {
        const read = vi.spyOn(HandoffStore.prototype, 'read');
        const reader = new VersionReader(r);
        const v = await reader.resolve('~1', { branch: 'main' });
        expect(v.sealed).toBe(true);
        expect(read.mock.calls.length).toBe(2);
      }),
    );
  });

  it('search without the key: every version counted unreadable from the index, no note read, no walk for the heads', async () => {
    await as(carol, () =>
      withRepo(repo.dir, async (r) => {
        const first = await searchHandoffs(r, { query: 'PRIVATE' });
        expect(first.unreadable).toBe(4);
        const read = vi.spyOn(r.objects, 'read');
        const latest = vi.spyOn(VersionReader.prototype, 'latest');
        const again = await searchHandoffs(r, { query: 'PRIVATE' });
        expect([again.unreadable, again.hits.length]).toEqual([4, 0]);
        expect(latest).not.toHaveBeenCalled();
        expect(read).not.toHaveBeenCalled();
      }),
    );
  });

  it('with the key: the heads first as the walk puts them, a shared version newest of all', async () => {
    repo.commit('feat: shared');
    expect(handoff(repo, ['write', '--summary', 'SHARED'], { env: ada }).code).toBe(0);
    for (const who of [ada, carol]) {
      const { bulk, walked } = await as(who, () => listings({ branch: 'main' }));
      expect(bulk).toHaveLength(5);
      expect(bulk).toEqual(walked);
    }
  });
});
