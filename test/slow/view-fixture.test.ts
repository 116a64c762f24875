/**
 * The fixture of the view's browser tests (test/helpers/view-fixture.ts) holds what it
 * says, as the CLI itself reads it, so that what a browser test finds on the page (a
 * divergence, a moved version, a squash landing, a relay) is compared with a real history.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { buildLargeHistory, buildViewFixture, logOf, HOSTILE, PRIVATE_SUMMARY, type ViewFixture } from '../helpers/view-fixture.js';

describe('the view fixture (branches, a divergence, a rebase, a squash merge, a relay, a work item, hostile text)', () => {
  let f: ViewFixture;
  beforeAll(() => {
    f = buildViewFixture();
  });

  const trailers = (id: string) => f.repo.git('log', '-1', '--format=%B', id);

  it('every version it names is in the history, on the branch it says', () => {
    const byId = new Map(logOf(f.repo).map((v) => [v.version, v]));
    const { v } = f;
    for (const id of [v.mainStart, v.divergedA, v.divergedB, ...v.parser, v.docs, v.squashLanded, v.relay, v.relayed, v.hostile])
      expect(byId.has(id), id).toBe(true);
    expect(new Set([v.mainStart, v.divergedA, v.divergedB, ...v.parser, v.docs, v.squashLanded, v.relay, v.relayed, v.hostile]).size).toBe(10);
    const onMain = logOf(f.repo, ['--branch', 'main']).map((r) => r.version);
    for (const id of [v.mainStart, v.squashLanded, v.divergedA, v.divergedB, v.hostile]) expect(onMain).toContain(id);
    const onParser = logOf(f.repo, ['--branch', 'feature/parser']).map((r) => r.version);
    expect(onParser).toEqual([v.relayed, v.relay, v.parser[1], v.parser[0]]);
  });

  it('the divergence on main is one every reader reports', () => {
    const show = handoff(f.repo, ['show', '--json', '--branch', 'main']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json.version).toBe(f.v.hostile);
    expect(Array.isArray(show.json.diverged), JSON.stringify(show.json.diverged)).toBe(true);
    const heads = show.json.diverged.map((d: { version: string }) => d.version);
    expect(
      [f.v.divergedA, f.v.divergedB].some((id) => heads.includes(id)),
      JSON.stringify(heads),
    ).toBe(true);
    expect(handoff(f.repo, ['show', '--branch', 'main']).stdout + handoff(f.repo, ['show', '--branch', 'main']).stderr).toContain('two sessions diverged');
    // both sides continue the squash landing, neither the other
    const rows = new Map(logOf(f.repo).map((r) => [r.version, r]));
    expect(rows.get(f.v.divergedA)!.continues).toEqual([f.v.squashLanded]);
    expect(rows.get(f.v.divergedB)!.continues).toEqual([f.v.squashLanded]);
  });

  it('the rebase moved feature/parser versions (same ids, new targets); the squash landed a version on main; the relay is asked', () => {
    const rows = new Map(logOf(f.repo).map((r) => [r.version, r]));
    expect(f.v.parser.map((id) => rows.get(id)!.target)).toEqual(f.v.parserTargetsAfter);
    for (const [i, t] of f.v.parserTargetsBefore.entries()) expect(t).not.toBe(f.v.parserTargetsAfter[i]);
    expect(trailers(f.v.squashLanded)).toContain('Handoff-Branch: main');
    expect(trailers(f.v.squashLanded)).toMatch(/Handoff-Reattached-From: [0-9a-f]{40}/);
    expect(rows.get(f.v.squashLanded)!.summary).toBe(rows.get(f.v.docs)!.summary);
    expect(trailers(f.v.relay)).toContain('Handoff-Relay: requested');
    expect(rows.get(f.v.relayed)!.continues).toEqual([f.v.relay]);
  });

  it('the work item has its receipts, and the hostile version holds its text byte for byte', () => {
    const st = handoff(f.repo, ['status', '--work-item', f.item.workItem, '--json']);
    expect(st.json.item.receipts.map((r: { kind: string }) => r.kind).sort()).toEqual(['claim', 'handoff']);
    expect(st.json.item.receipts.map((r: { id: string }) => r.id)).toEqual(f.item.receipts);
    const h = handoff(f.repo, ['show', '--json', '--version', f.v.hostile]).json.handoff;
    expect(h.summary).toBe(HOSTILE.summary);
    expect(h.soft_context.notes).toContain(HOSTILE.note);
    expect(h.cursor.next_step).toBe(HOSTILE.nextStep);
    expect(h.cursor.last_discussed).toBe(HOSTILE.lastDiscussed);
    expect(h.guards).toContain(HOSTILE.guard);
    expect(h.work_item).toBe(f.item.workItem);
  });

  it('the private version is readable in clone a and encrypted in its note', () => {
    const row = logOf(f.repo).find((r) => r.version === f.v.encrypted) as any;
    expect(row).toMatchObject({ visibility: 'private', readable: true, summary: PRIVATE_SUMMARY });
    expect(f.repo.git('notes', '--ref=handoff', 'show', row.target)).not.toContain(PRIVATE_SUMMARY);
  });
});

describe('the large synthetic history', () => {
  it('5,000 versions, read by the CLI', () => {
    const t = Date.now();
    const repo = buildLargeHistory(5000);
    const built = Date.now() - t;
    const r = handoff(repo, ['log', '--json', '-n', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.versions).toHaveLength(3);
    expect(r.json.versions[0].summary).toMatch(/^Version 4999 of the benchmark handoff/);
    expect(built).toBeLessThan(120_000);
  });
});
