import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff, cliPath } from '../helpers/cli.js';
import { Fleet, expectEverywhere, sync, writeVersion, type FleetRepo } from '../helpers/fleet.js';
import { TestRepo } from '../helpers/repo.js';

function refs(repo: TestRepo): string {
  return repo.git('for-each-ref', '--format=%(refname) %(objectname)');
}

/** Everything a dry run must leave alone: refs, reflogs, objects. */
function footprint(repo: TestRepo): string {
  const reflog = repo.gitRaw(['reflog', 'show', '--all']).stdout;
  return `${refs(repo)}\n${reflog}\n${repo.git('count-objects', '-v')}`;
}

function syncAsync(repo: FleetRepo): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', ['handoff', 'sync', '--json'], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('sync through a bare remote', () => {
  it('merges diverged histories (unrelated at first) so every version is everywhere', () => {
    const fleet = new Fleet(3);
    const [a, b, c] = fleet.clones;
    for (const r of fleet.clones) r.commit(`feat: work on ${r.name}`, { [`${r.name}.txt`]: `${r.name}\n` });
    const written = [writeVersion(a, 'a one'), writeVersion(b, 'b one'), writeVersion(a, 'a two'), writeVersion(c, 'c one'), writeVersion(b, 'b two')];

    expect(sync(a).action).toBe('push');
    const sb = sync(b);
    expect(sb).toMatchObject({ action: 'merge', incoming: 2, outgoing: 2, conflicts: [], attempts: 1 });
    // The merge commit keeps both parents and says what it is.
    const merge = b.git('cat-file', '-p', sb.local.after);
    expect(merge.match(/^parent /gm)).toHaveLength(2);
    expect(merge).toContain('Handoff-Kind: merge');
    sync(c);
    expect(sync(a).action).toBe('fast-forward');
    expect(sync(b).action).toBe('fast-forward');
    expect(sync(c).action).toBe('up-to-date');
    expectEverywhere(fleet, written);
    // Every clone and the remote hold the very same history.
    const tips = fleet.all().map((r) => r.notesRef());
    expect(new Set(tips).size).toBe(1);
    expect(c.git('rev-parse', 'refs/notes/remotes/origin/handoff').trim()).toBe(tips[0]);
  });

  it('settles the same commit changed on both sides to the newer version, never concatenated', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const target = a.head();
    const base = writeVersion(a, 'shared start');
    sync(a);
    sync(b);
    const older = writeVersion(a, 'older edit on a');
    const newer = writeVersion(b, 'newer edit on b');
    // The newer side syncs first; the older side's merge must still keep the newer note.
    sync(b);
    const sa = sync(a);
    expect(sa.action).toBe('merge');
    expect(sa.conflicts).toEqual([{ target, path: null, kept: newer, dropped: older, carried_receipts: [] }]);
    sync(b);
    for (const r of fleet.all()) {
      const note = r.nativeNote(target)!;
      expect(note).toContain('summary: newer edit on b');
      expect(note.match(/^schema:/gm)).toHaveLength(1);
      expect(note).not.toMatch(/<<<<<<<|>>>>>>>/);
    }
    for (const r of fleet.clones) {
      const show = handoff(r, ['show', '--json']);
      expect(show.json.version).toBe(newer);
      expect(show.json.handoff.summary).toBe('newer edit on b');
    }
    // And the other way round: the older side first.
    const older2 = writeVersion(b, 'older again, on b');
    const newer2 = writeVersion(a, 'newer again, on a');
    sync(b);
    expect(sync(a).conflicts).toEqual([{ target, path: null, kept: newer2, dropped: older2, carried_receipts: [] }]);
    sync(b);
    expect(b.nativeNote(target)).toContain('summary: newer again, on a');
    expectEverywhere(fleet, [base, older, newer, older2, newer2]);
  });

  it('merges receipts and work-item records the same way: no receipt lost', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const claim = (r: FleetRepo, item: string) => {
      const c = handoff(r, ['claim', '--work-item', item, '--title', `work on ${item}`, '--session', r.name, '--json']);
      expect(c.code, c.stderr).toBe(0);
      return `receipts/${c.json.receipt.id}.json`;
    };
    const receipts = [claim(a, 'local:#1'), claim(b, 'local:#2'), claim(a, 'local:#3'), claim(b, 'local:#3')];
    sync(a);
    sync(b);
    sync(a);
    for (const r of fleet.all()) {
      const paths = r.git('ls-tree', '-r', '--name-only', 'refs/notes/handoff').split('\n');
      for (const p of [...receipts, 'items/local/1.json', 'items/local/2.json', 'items/local/3.json']) expect(paths, `${r.name}: ${p}`).toContain(p);
      r.fsck();
    }
    // Both claimed #3: the newer claim (b's) holds the record; both receipts stay.
    expect(JSON.parse(b.git('show', 'refs/notes/handoff:items/local/3.json')).receipts).toContain(receipts[3].slice(9, -5));
  });

  it('an item record changed on both clones keeps the newer state and the receipts of both', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const item = 'local:#1';
    const run = (r: FleetRepo, args: string[]) => {
      const out = handoff(r, [...args, '--work-item', item, '--session', r.name, '--json']);
      expect(out.code, out.stderr).toBe(0);
      return out.json.receipt.id as string;
    };
    const authorize = (r: FleetRepo, scope: string) => run(r, ['authorize', '--scope', scope, '--retries', '2']);
    const record = (r: FleetRepo) => JSON.parse(r.git('show', 'refs/notes/handoff:items/local/1.json'));
    const claim = run(a, ['claim', '--title', 'shared item']);
    sync(a);
    sync(b);

    // The newer change is the merging side's own (b): it keeps its record and takes a's receipt.
    const olderA = authorize(a, 'merge after green checks, from a');
    const newerB = authorize(b, 'merge after green checks, from b');
    sync(a);
    expect(sync(b).conflicts).toEqual([
      { target: null, path: 'items/local/1.json', kept: expect.any(String), dropped: expect.any(String), carried_receipts: [olderA] },
    ]);
    sync(a);
    // The newer change came from the remote (a's): the merging side (b) takes it and adds its own.
    const olderB = authorize(b, 'second round, from b');
    const newerA = authorize(a, 'second round, from a');
    sync(a);
    expect(sync(b).conflicts[0]).toMatchObject({ path: 'items/local/1.json', carried_receipts: [olderB] });
    sync(a);

    const all = [claim, olderA, newerB, olderB, newerA];
    for (const r of fleet.all()) {
      expect(record(r), r.name).toMatchObject({ state: 'in-progress', receipts: [claim, olderA, newerB, olderB, newerA], authorization: newerA });
    }
    for (const r of fleet.clones) {
      const status = handoff(r, ['status', '--work-item', item, '--json']);
      expect(status.code, status.stderr).toBe(0);
      expect(
        status.json.item.receipts.map((x: { id: string }) => x.id),
        r.name,
      ).toEqual([...all].reverse());
      expect(status.json.item.authorization.id).toBe(newerA);
      r.fsck();
    }
  });

  it('keeps the policy approvals made on both clones', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    const approve = (r: FleetRepo, project: string) => {
      r.write('.harness/session-workflow.yaml', `seed:\n  prefix:\n    project: ${project}\n`);
      const out = handoff(r, ['policy', 'approve', '--json']);
      expect(out.code, out.stderr).toBe(0);
      return handoff(r, ['policy', '--json']).json.hash as string;
    };
    writeVersion(a, 'start');
    sync(a);
    sync(b);
    const ha = approve(a, 'Alpha');
    const hb = approve(b, 'Beta');
    expect(ha).not.toBe(hb);
    sync(a);
    expect(sync(b).conflicts).toMatchObject([{ path: 'policy/approved' }]);
    sync(a);
    for (const r of fleet.all()) {
      const approved = r.git('show', 'refs/notes/handoff:policy/approved').trim().split('\n');
      expect(approved.sort(), r.name).toEqual([ha, hb].sort());
    }
    for (const r of fleet.clones) expect(handoff(r, ['policy', '--json']).json.approved, r.name).toBe(true);
  });

  it('survives a race between two syncs: the loser fetches, merges and pushes again', async () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    // The remote takes its time before updating, as a busy server does: both pushes overlap.
    const hook = join(fleet.remote.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nsleep 0.4\n');
    chmodSync(hook, 0o755);
    const written: string[] = [];
    let retried = 0;
    for (let round = 0; round < 2; round++) {
      written.push(writeVersion(a, `a round ${round}`), writeVersion(b, `b round ${round}`));
      const results = await Promise.all([syncAsync(a), syncAsync(b)]);
      for (const r of results) {
        expect(r.code, r.stderr).toBe(0);
        retried += JSON.parse(r.stdout).attempts > 1 ? 1 : 0;
      }
    }
    expect(retried).toBeGreaterThan(0);
    sync(a);
    sync(b);
    expectEverywhere(fleet, written);
  });

  it('leaves the local history untouched and exits 4 when the remote is unreachable or refuses', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    writeVersion(a, 'on a');
    sync(a);
    writeVersion(b, 'on b, diverged');
    const hook = join(fleet.remote.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "no notes here" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const before = b.notesRef();
    const reflogBefore = b.git('reflog', 'show', 'refs/notes/handoff');
    const refused = handoff(b, ['sync', '--json']);
    expect(refused.code).toBe(4);
    expect(refused.json.error.code).toBe('RemoteRefused');
    expect(refused.stderr).toMatch(/^git handoff: remote 'origin' refused the handoff history: .*hook declined/m);
    expect(b.notesRef()).toBe(before);
    expect(b.git('reflog', 'show', 'refs/notes/handoff')).toBe(reflogBefore);

    b.git('remote', 'add', 'gone', join(fleet.root, 'no-such-remote.git'));
    const unreachable = handoff(b, ['sync', 'gone']);
    expect(unreachable.code).toBe(4);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toMatch(/^git handoff: cannot fetch from remote 'gone': /);
    expect(b.notesRef()).toBe(before);

    const noRemote = handoff(b, ['sync', 'nowhere']);
    expect(noRemote.code).toBe(1);
    expect(noRemote.stderr).toMatch(/'nowhere' is not a configured remote/);
    const lonely = TestRepo.init();
    lonely.commit('init');
    expect(handoff(lonely, ['sync']).stderr).toMatch(/no remote to sync with/);
    expect(handoff(lonely, ['sync']).code).toBe(1);
  });

  it('--dry-run prints the plan and writes nothing, locally or remotely', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    writeVersion(a, 'a');
    sync(a);
    writeVersion(b, 'b');
    // b has not fetched yet: the plan can only say it would fetch first.
    let before = [footprint(b), footprint(fleet.remote)];
    const blind = handoff(b, ['sync', '--dry-run']);
    expect(blind.code, blind.stderr).toBe(0);
    expect(blind.stdout).toMatch(/would fetch [0-9a-f]{12} from origin/);
    expect([footprint(b), footprint(fleet.remote)]).toEqual(before);

    b.git('fetch', '-q', 'origin', 'refs/notes/handoff');
    before = [footprint(b), footprint(fleet.remote)];
    const dry = handoff(b, ['sync', '--dry-run', '--json']);
    expect(dry.json).toMatchObject({ ok: true, action: 'merge', dry_run: true, incoming: 1, outgoing: 1 });
    expect([footprint(b), footprint(fleet.remote)]).toEqual(before);
    expect(sync(b)).toMatchObject({ action: 'merge', incoming: 1, outgoing: 1 });
  });

  it('show mentions versions the fetched remote history holds and the local one lacks', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    writeVersion(b, 'b first');
    writeVersion(a, 'a first');
    writeVersion(a, 'a second');
    sync(a);
    expect(handoff(b, ['show']).stdout).not.toMatch(/lacks/);
    b.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/remotes/origin/handoff');
    expect(handoff(b, ['show']).stdout).toMatch(/^origin has 2 handoff versions this clone lacks; run 'git handoff sync origin'$/m);
    sync(b);
    expect(handoff(b, ['show']).stdout).not.toMatch(/lacks/);
    // Ahead of the tracking ref (a local write since): nothing is lacking.
    writeVersion(b, 'b after sync');
    expect(handoff(b, ['show']).stdout).not.toMatch(/lacks/);
  });

  it('shows progress on stderr when a sync takes more than a second (plain lines off a terminal)', () => {
    const fleet = new Fleet(1);
    const [a] = fleet.clones;
    writeVersion(a, 'a');
    const hook = join(fleet.remote.dir, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\nsleep 1.5\n');
    chmodSync(hook, 0o755);
    const r = handoff(a, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^pushing to origin$/m);
    for (const line of r.stderr.trim().split('\n')) expect(line).toMatch(/^(fetching the handoff history from origin|pushing to origin)$/);
    expect(r.stdout).toBe('pushed 1 version to origin\n');
  });
});
