/**
 * The history `git handoff view` is proved on (issue 27), built with the packed CLI and the
 * real git, user config isolated and every date fixed (one shared clock, a minute per git
 * call): two clones of a bare remote, with
 * - handoffs on main and on two branches (feature/parser, feature/docs);
 * - a divergence: both clones write on main from the same version, then sync;
 * - a plain rebase: feature/parser rebased onto main with the hooks, its versions moved
 *   (same ids, new targets);
 * - a squash merge: feature/docs squashed into main through the hooks, which land its
 *   newest handoff on main as a version of its own;
 * - a relay request (`write --relay`), and the fresh session that continues it;
 * - a work item (local:#1) claimed, its document recorded, with its receipts;
 * - a hostile version whose fields hold HTML, a javascript: link and terminal escapes;
 * - a private version (encrypted with age to clone a's own key, made in a temporary
 *   XDG_CONFIG_HOME) on a branch of its own.
 * Every id a test asserts on is returned. Also, for the scale tests and the bench, large
 * synthetic histories through the bench's own `git fast-import` builder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { handoff } from './cli.js';
import { Fleet, sync, writeVersion, type FleetRepo } from './fleet.js';
import { commitWithHooks, gitWithHooks } from './hooks.js';
import { TestRepo, tempDir } from './repo.js';
import { fillDoc } from './work-items.js';
// @ts-expect-error: a plain .mjs script without types
import { buildFixture } from '../../scripts/bench/fixture.mjs';

/** What the hostile version holds, field by field (each must show as text and run nothing). */
export const HOSTILE = {
  summary: 'hostile: <img src=x onerror=alert(1)> and <b>bold</b>',
  note: '<script>alert(1)</script>',
  nextStep: '[open me](javascript:alert(1)) or javascript:alert(1)',
  lastDiscussed: 'link \x1b]8;;https://evil.example/\x07click\x1b]8;;\x07 then \x1b[31mred\x1b[0m',
  guard: '"><svg onload=alert(1)>',
} as const;

/** The summary of the private version: in no file unless it is asked for. */
export const PRIVATE_SUMMARY = 'private: the salary spreadsheet is in the attic';

export interface ViewFixture {
  /** clone a: the repository the view is started in (main checked out) */
  repo: FleetRepo;
  /** clone b, which wrote the other side of the divergence */
  other: FleetRepo;
  fleet: Fleet;
  v: {
    /** the first version on main, which both sides of the divergence continue */
    mainStart: string;
    /** the two heads of the divergence on main (a's and b's) */
    divergedA: string;
    divergedB: string;
    /** feature/parser's versions, oldest first: moved by the rebase, same ids */
    parser: string[];
    /** the targets of `parser` before and after the rebase */
    parserTargetsBefore: string[];
    parserTargetsAfter: string[];
    /** feature/docs's version, and the version the squash merge landed on main */
    docs: string;
    squashLanded: string;
    /** the version that asks for a relay (on feature/parser) */
    relay: string;
    /** the version the relayed session wrote, continuing `relay` */
    relayed: string;
    /** the version holding HOSTILE (on main, the newest there) */
    hostile: string;
    /** a private version (age, to the key of clone a, which can read it), on notes/private */
    encrypted: string;
  };
  /** the work item and its receipt ids (the claim's and the handoff document's, as `status` lists them) */
  item: { workItem: string; receipts: string[] };
}

/** The version ids and targets of `branch`, newest first, as `log --json` gives them. */
export function logOf(repo: TestRepo, args: string[] = ['--all']): { version: string; target: string; summary: string; continues?: string[] }[] {
  const r = handoff(repo, ['log', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json.versions;
}

export function buildViewFixture(): ViewFixture {
  const fleet = new Fleet(2);
  const [a, b] = fleet.clones;
  for (const c of [a, b]) expect(handoff(c, ['init']).code).toBe(0);
  const commit = (repo: FleetRepo, m: string, files: Record<string, string>) => {
    const r = commitWithHooks(repo, m, files);
    expect(r.code, r.stderr).toBe(0);
    return r.head;
  };

  // main: the first version, known to both clones.
  commit(a, 'feat: the parser plan', { 'PLAN.md': 'parse the config\n' });
  expect(gitWithHooks(a, ['push', '-q', 'origin', 'main']).code).toBe(0);
  const mainStart = writeVersion(a, 'main: the plan is agreed', ['--session', 'sess-main', '--next-step', 'split the work in two branches']);
  sync(a);
  expect(gitWithHooks(b, ['pull', '-q', 'origin', 'main']).code).toBe(0);
  sync(b);

  // feature/parser: two commits, a version on each (rebased below).
  a.git('checkout', '-q', '-b', 'feature/parser');
  const parserTargetsBefore: string[] = [];
  const parser: string[] = [];
  parserTargetsBefore.push(commit(a, 'feat: the lexer', { 'src/lexer.ts': 'export const lex = 1;\n' }));
  parser.push(writeVersion(a, 'parser: the lexer is done', ['--session', 'sess-parser', '--next-step', 'the grammar']));
  parserTargetsBefore.push(commit(a, 'feat: the grammar', { 'src/grammar.ts': 'export const g = 1;\n' }));
  parser.push(writeVersion(a, 'parser: the grammar is done', ['--session', 'sess-parser', '--add-pending-question', 'Do we follow RFC 4180 exactly?']));

  // feature/docs: one commit, one version (squash-merged below).
  a.git('checkout', '-q', 'main');
  a.git('checkout', '-q', '-b', 'feature/docs');
  commit(a, 'docs: the config format', { 'docs/config.md': '# config\n' });
  const docs = writeVersion(a, 'docs: the format is written down', ['--session', 'sess-docs', '--next-step', 'merge it']);

  // The squash merge of feature/docs into main (which moved meanwhile), through the hooks.
  a.git('checkout', '-q', 'main');
  commit(a, 'fix: main moves on', { 'PLAN.md': 'parse the config, then validate it\n' });
  expect(gitWithHooks(a, ['merge', '-q', '--squash', 'feature/docs']).code).toBe(0);
  const squashed = gitWithHooks(a, ['commit', '-q', '-m', 'feat: the config format documented (#2)']);
  expect(squashed.code, squashed.stderr).toBe(0);
  expect(squashed.stderr, a.dir).toContain('now sits on');
  expect(gitWithHooks(a, ['branch', '-q', '-D', 'feature/docs']).code).toBe(0);
  const squashLanded = logOf(a, ['--branch', 'main'])[0].version;
  expect(gitWithHooks(a, ['push', '-q', 'origin', 'main']).code).toBe(0);
  sync(a);
  expect(gitWithHooks(b, ['pull', '-q', 'origin', 'main']).code).toBe(0);
  sync(b);

  // The divergence: both clones write on main from squashLanded, neither having seen the other.
  const divergedA = writeVersion(a, 'main: a thinks the lexer comes first', ['--session', 'sess-a', '--add-note', 'a: lexer first']);
  const divergedB = writeVersion(b, 'main: b thinks the grammar comes first', ['--session', 'sess-b', '--add-note', 'b: grammar first']);
  sync(b);
  sync(a);
  sync(b);

  // The plain rebase: feature/parser onto the new main; its versions move with their commits.
  a.git('checkout', '-q', 'feature/parser');
  const rebased = gitWithHooks(a, ['rebase', 'main']);
  expect(rebased.code, rebased.stderr).toBe(0);
  const parserTargetsAfter = [a.git('rev-parse', 'HEAD~1').trim(), a.head()];

  // The relay request, on feature/parser.
  const relay = writeVersion(a, 'parser: context is full, relaying to a fresh session', ['--session', 'sess-parser', '--relay']);
  // the fresh session the relay started, continuing it
  const relayed = writeVersion(a, 'parser: a fresh session takes over from the relay', ['--session', 'sess-parser-2', '--next-step', 'the error messages']);

  // The work item: claimed, its handoff document recorded.
  a.git('checkout', '-q', 'main');
  const workItem = 'local:#1';
  const c = handoff(a, ['claim', '--work-item', workItem, '--title', 'Parse the config', '--acceptance', '- tests pass', '--session', 'sess-main', '--json']);
  expect(c.code, c.stderr).toBe(0);
  const claimId: string = c.json.receipt.id;
  expect(handoff(a, ['doc', '--work-item', workItem, '--session', 'sess-main']).code).toBe(0);
  const docPath = join(a.dir, 'docs/HANDOFF-1.md');
  a.write(
    'docs/HANDOFF-1.md',
    fillDoc(readFileSync(docPath, 'utf8'), ['Parse the config.', `The lexer; receipt: ${claimId}`, undefined, undefined, 'none', 'no force push', '`PLAN.md`']),
  );
  const d = handoff(a, ['doc', '--work-item', workItem, '--session', 'sess-main', '--json']);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  const receipts: string[] = handoff(a, ['status', '--work-item', workItem, '--json']).json.item.receipts.map((r: { id: string }) => r.id);
  expect(receipts).toHaveLength(2);
  expect(receipts).toContain(claimId);

  // The hostile version, newest on main.
  const hostile = writeVersion(a, HOSTILE.summary, [
    '--session',
    'sess-hostile',
    '--work-item',
    workItem,
    '--add-note',
    HOSTILE.note,
    '--next-step',
    HOSTILE.nextStep,
    '--last-discussed',
    HOSTILE.lastDiscussed,
    '--add-guard',
    HOSTILE.guard,
  ]);
  // A private version (encrypted with age to a's own key), on a branch of its own.
  const config = tempDir('handoff-xdg-view-');
  a.env.XDG_CONFIG_HOME = config;
  expect(handoff(a, ['key', 'new']).code).toBe(0);
  a.git('checkout', '-q', '-b', 'notes/private');
  const encrypted = writeVersion(a, PRIVATE_SUMMARY, ['--session', 'sess-private', '--private']);
  a.git('checkout', '-q', 'main');
  sync(a);

  return {
    repo: a,
    other: b,
    fleet,
    v: { mainStart, divergedA, divergedB, parser, parserTargetsBefore, parserTargetsAfter, docs, squashLanded, relay, relayed, hostile, encrypted },
    item: { workItem, receipts },
  };
}

/**
 * A synthetic history of `versions` handoff versions (and a few more commits) in a fresh
 * repository, built by the bench's `git fast-import` builder (scripts/bench/fixture.mjs,
 * the format of docs/format.md): 5,000 in seconds, 50,000 in well under a minute.
 */
export function buildLargeHistory(versions: number): TestRepo {
  const dir = join(tempDir('handoff-view-large-'), 'repo');
  buildFixture(dir, { commits: versions + 100, versions });
  return new TestRepo(dir, TestRepo.init().env);
}
