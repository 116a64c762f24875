/**
 * Notes whose commit is gone or reachable from no branch, tag or remote branch (after a
 * server-side squash or rebase merge, a force push, a deleted branch and `git gc`), and the
 * reachable commits they may belong to now.
 */
import type { Repo } from './repo.js';
import { readTree, type NoteRef } from './notes-tree.js';
import type { Candidate } from '../core/orphans.js';
import { objectTypes } from './object-types.js';
import type { PassThrough } from 'node:stream';
import { GitFailed } from '../errors.js';
import { readCommit } from './read-objects.js';

/** What counts as "still in use": every branch, tag, remote branch and HEAD. */
const LIVE_REFS = ['--branches', '--tags', '--remotes', 'HEAD'];

export interface OrphanNote extends NoteRef {
  why: 'missing' | 'unreachable';
}

/** The notes among `notes` (all of a notes tree) whose commit is missing or unreachable. */
export async function findOrphanNotes(repo: Repo, notes: NoteRef[]): Promise<OrphanNote[]> {
  const out: OrphanNote[] = [];
  const present: NoteRef[] = [];
  const head = await repo.headCommit();
  const unreachableFrom = (of: NoteRef[]) =>
    repo.runGit(['rev-list', '--stdin', '--not', ...(head ? LIVE_REFS : LIVE_REFS.slice(0, -1))], {
      input: of.map((n) => `${n.target}\n`).join(''),
      readOnly: true,
    });
  // Both git processes at once: rev-list is given every note's object (a blob or tree
  // among them changes nothing it prints about the commits). Only when one is missing it
  // fails, and is asked again with the commits alone, as it always was.
  const [types, optimistic] = await Promise.all([
    objectTypes(
      repo,
      notes.map((n) => n.target),
    ),
    notes.length ? unreachableFrom(notes) : null,
  ]);
  for (const n of notes) {
    const type = types.get(n.target) ?? null;
    if (!type) out.push({ ...n, why: 'missing' });
    else if (type === 'commit') present.push(n);
  }
  if (present.length) {
    const r = optimistic && optimistic.code === 0 && out.length === 0 ? optimistic : await unreachableFrom(present);
    const unreachable = new Set(r.code === 0 ? r.stdout.toString().split('\n') : []);
    for (const n of present) if (unreachable.has(n.target)) out.push({ ...n, why: 'unreachable' });
  }
  return out.sort((a, b) => (a.target < b.target ? -1 : 1));
}

/**
 * The notes of the notes tree `tree` whose commit is missing or unreachable, as
 * `findOrphanNotes(repo, await listNotes(objects, tree))` finds them, for `doctor`: git lists
 * the tree (`ls-tree -r`: the fan-out subtrees are delta chains in a packed history, and
 * reading them in-process was most of doctor's time on 50,000 notes) and the listing goes
 * to `cat-file --batch-check` and `rev-list` as bytes while it is listed, with no object per
 * note (rev-list's work is mostly reading the commits it is given, so it keeps pace with the
 * listing). A note's blob is asked of git only for the orphans. `noted` is the set of every
 * note's commit, built when asked (only when there are orphans to place).
 */
export async function findOrphanNotesInTree(repo: Repo, tree: string): Promise<{ orphans: OrphanNote[]; noted: () => Set<string> }> {
  const head = await repo.headCommit();
  const unreachableFrom = (input: Buffer | PassThrough) =>
    repo.runGit(['rev-list', '--stdin', '--not', ...(head ? LIVE_REFS : LIVE_REFS.slice(0, -1))], { input, readOnly: true });
  // As objectTypes asks, raw objects; only the type is printed ("<name> missing" for none).
  // rev-list is given every note's object at once (see findOrphanNotes).
  // (node:stream loaded here: the hooks that share this module never start these processes)
  const { PassThrough: Pipe } = process.getBuiltinModule('node:stream');
  const typesIn = new Pipe();
  const reachIn = new Pipe();
  const typesRun = repo.runGit(['--no-replace-objects', 'cat-file', '--batch-check=%(objecttype)'], { input: typesIn, readOnly: true });
  const reachRun = unreachableFrom(reachIn);
  const lister = noteLister();
  const send = (t: Buffer) => {
    if (!t.length) return;
    typesIn.write(t);
    reachIn.write(t);
  };
  let listed: { code: number; stderr: string } | Error;
  try {
    listed = await streamGit(repo, ['--no-replace-objects', 'ls-tree', '-r', '-z', '--name-only', tree], (chunk) => send(lister.feed(chunk)));
    send(lister.end());
  } catch (e) {
    listed = e as Error;
  }
  typesIn.end();
  reachIn.end();
  const [types, optimistic] = await Promise.all([typesRun, reachRun]);
  if (listed instanceof Error) throw listed;
  if (listed.code !== 0) throw new GitFailed(`git ls-tree of the notes tree failed: ${listed.stderr.trim() || `exit ${listed.code}`}`);
  if (types.code !== 0) throw new GitFailed(`git cat-file --batch-check failed: ${types.stderr.trim() || `exit ${types.code}`}`);
  const { targets, count, pathAt } = lister.result();
  const nameAt = (i: number) => targets.toString('latin1', i * 41, i * 41 + 40);
  const noted = () => {
    const out = new Set<string>();
    for (let i = 0; i < count; i++) out.add(nameAt(i));
    return out;
  };
  // One line per name asked, in order.
  const answer = types.stdout;
  const missing: number[] = [];
  const other: number[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const nl = answer.indexOf(10, at);
    const line = nl < 0 ? answer.subarray(at) : answer.subarray(at, nl);
    at = nl < 0 ? answer.length : nl + 1;
    if (line.length === 6 && line.equals(COMMIT)) continue;
    const type = line.toString('latin1');
    if (type === 'tree' || type === 'blob' || type === 'tag') other.push(i);
    else missing.push(i);
  }
  let unreachable: Set<string>;
  if (optimistic.code === 0 && missing.length === 0) unreachable = new Set(optimistic.stdout.toString('latin1').split('\n').filter(Boolean));
  else {
    const skip = new Set([...missing, ...other]);
    const present: string[] = [];
    for (let i = 0; i < count; i++) if (!skip.has(i)) present.push(`${nameAt(i)}\n`);
    const r = present.length ? await unreachableFrom(Buffer.from(present.join(''), 'latin1')) : null;
    unreachable = new Set(r && r.code === 0 ? r.stdout.toString('latin1').split('\n').filter(Boolean) : []);
  }
  const found: { i: number; why: OrphanNote['why'] }[] = missing.map((i) => ({ i, why: 'missing' }));
  if (unreachable.size) {
    const skip = new Set([...missing, ...other]);
    for (let i = 0; i < count; i++) if (!skip.has(i) && unreachable.has(nameAt(i))) found.push({ i, why: 'unreachable' });
  }
  if (!found.length) return { orphans: [], noted };
  // The orphans' blobs, by path in the tree: one more listing of the tree with the ids (a
  // `<tree>:<path>` lookup each reads the fan-out folder again: a minute for 100,000 foreign notes).
  const wanted = new Map<string, number>();
  for (const [k, { i }] of found.entries()) wanted.set(pathAt(i), k);
  const ids: (string | null)[] = new Array(found.length).fill(null);
  const full = await repo.runGit(['--no-replace-objects', 'ls-tree', '-r', '-z', tree], { readOnly: true });
  if (full.code !== 0) throw new GitFailed(`git ls-tree of the notes tree failed: ${full.stderr.trim() || `exit ${full.code}`}`);
  const listing = full.stdout;
  for (let at = 0; at < listing.length;) {
    const end = listing.indexOf(0, at);
    const stop = end < 0 ? listing.length : end;
    // `<mode> SP <type> SP <id> TAB <path>`
    const tab = listing.indexOf(9, at);
    if (tab > at && tab < stop) {
      const k = wanted.get(listing.toString('utf8', tab + 1, stop));
      if (k !== undefined) ids[k] = listing.toString('latin1', listing.lastIndexOf(32, tab) + 1, tab);
    }
    at = stop + 1;
  }
  const orphans: OrphanNote[] = [];
  for (const [k, { i, why }] of found.entries()) {
    const path = pathAt(i);
    // (an entry whose object this repository lacks, a submodule's commit: read from the tree itself)
    const blob = /^[0-9a-f]{40,64}$/.test(ids[k] ?? '') ? ids[k]! : await entryAt(repo, tree, path);
    if (!blob) throw new GitFailed(`no entry at ${path} in the notes tree ${tree}`);
    orphans.push({ target: nameAt(i), blob, path, why });
  }
  // Missing first, then unreachable, each in listing order, then sorted as findOrphanNotes sorts.
  orphans.sort((a, b) => (a.target < b.target ? -1 : 1));
  return { orphans, noted };
}

const COMMIT = Buffer.from('commit');

/** Runs git in `repo` as Repo.runGit does for a read, handing on its output as it comes. */
function streamGit(repo: Repo, args: string[], onData: (chunk: Buffer) => void): Promise<{ code: number; stderr: string }> {
  const child = repo.startReadOnlyGit(args);
  child.stdin.end();
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  child.stdout.on('data', onData);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 128, stderr }));
  });
}

/** The object id of the entry at `path` in `tree`, read in-process. */
async function entryAt(repo: Repo, tree: string, path: string): Promise<string | null> {
  let at = tree;
  const names = path.split('/');
  for (const [k, name] of names.entries()) {
    const e = (await readTree(repo.objects, at)).find((x) => x.name === name);
    if (!e) return null;
    if (k === names.length - 1) return e.oid;
    at = e.oid;
  }
  return null;
}

/**
 * The notes among the paths `ls-tree -r -z --name-only` lists, fed as they come
 * (`listNotes`'s rule: folders of two hex digits, a name of hex digits, 40 in all): `feed`
 * and `end` give the commits of the entries they completed as 41-byte lines
 * (`<40 hex>\n`); `result` gives all of them and the path of the i-th.
 */
export function noteLister(): {
  feed(chunk: Buffer): Buffer;
  end(): Buffer;
  result(): { targets: Buffer; count: number; pathAt: (i: number) => string };
} {
  const listing: Buffer[] = [];
  const done: Buffer[] = [];
  const starts: number[] = [];
  let size = 0;
  let carry: Buffer | null = null;
  let carryAt = 0;
  let count = 0;
  /** The entries of `buf` (at `bufAt` in the listing); an unfinished last one waits, unless `final`. */
  const scan = (buf: Buffer, bufAt: number, final: boolean): Buffer => {
    const out = Buffer.allocUnsafe(Math.floor(buf.length / 41) * 41 + 41);
    let n = 0;
    let from = 0;
    while (from < buf.length) {
      // One pass over the entry finds its end and judges it (a native search for the NUL
      // first cost as much again, called 50,000 times).
      let hex = 0;
      let seg = 0;
      let ok = true;
      const base = n * 41;
      let to = from;
      for (; to < buf.length; to++) {
        const b = buf[to];
        if (b === 0) break;
        if (!ok) continue;
        if (b === 0x2f) {
          ok = seg === 2;
          seg = 0;
        } else if ((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66)) {
          if (hex < 40) out[base + hex] = b;
          hex++;
          seg++;
        } else ok = false;
      }
      if (to === buf.length && !final) break;
      if (ok && seg > 0 && hex === 40) {
        out[base + 40] = 10;
        starts.push(bufAt + from, bufAt + to);
        n++;
      }
      from = to + 1;
    }
    count += n;
    carry = from < buf.length ? buf.subarray(from) : null;
    carryAt = bufAt + from;
    const t = out.subarray(0, n * 41);
    done.push(t);
    return t;
  };
  return {
    feed(chunk) {
      listing.push(chunk);
      const at = carry ? carryAt : size;
      size += chunk.length;
      return scan(carry ? Buffer.concat([carry, chunk]) : chunk, at, false);
    },
    end() {
      return carry ? scan(carry, carryAt, true) : Buffer.alloc(0);
    },
    result() {
      const all = Buffer.concat(listing);
      return { targets: Buffer.concat(done), count, pathAt: (i) => all.toString('utf8', starts[2 * i], starts[2 * i + 1]) };
    },
  };
}

/**
 * Where each of `branches` still lives here: the local branch or a remote-tracking branch
 * (`refs/remotes/<remote>/<name>`) of that name, else absent. A note's commit missing from
 * this clone while its branch is still known may only be waiting for a fetch.
 */
export async function branchHomes(repo: Repo, branches: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!branches.length) return out;
  const r = await repo.runGit(['for-each-ref', '--format=%(refname)', 'refs/heads/', 'refs/remotes/'], { readOnly: true });
  const refs = r.code === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  // Any remote's `<remote>/<name>` counts (remote names may hold a slash); erring towards
  // "still known" only makes doctor more careful.
  for (const b of branches) {
    const home = refs.find((ref) => ref === `refs/heads/${b}`) ?? refs.find((ref) => ref.startsWith('refs/remotes/') && ref.endsWith(`/${b}`));
    if (home) out.set(b, home);
  }
  return out;
}

/**
 * Every commit some reflog of this clone remembers (HEAD, branches): the commits an amend,
 * rebase, squash or reset replaced here. Empty when reflogs are off or expired.
 */
export async function reflogCommits(repo: Repo): Promise<Set<string>> {
  const out = new Set<string>();
  for (const ref of ['HEAD', '--branches']) {
    const r = await repo.runGit(['log', '-g', '--format=%H', ref], { readOnly: true });
    if (r.code === 0) for (const id of r.stdout.toString().split('\n')) if (id) out.add(id);
  }
  return out;
}

/** How far back (seconds before the oldest orphan) a rewritten commit is looked for. */
const LOOKBACK_SECONDS = 30 * 86400;
const MAX_CANDIDATES = 20000;

/**
 * Non-merge commits reachable from live refs, no older than `since` less a margin, with
 * their trees and (when asked) `git patch-id --stable` computed from `git diff-tree -p`
 * exactly as `write` computed `head_patch_id`.
 */
export async function candidateCommits(repo: Repo, since: number, withPatchIds: boolean): Promise<Candidate[]> {
  const head = await repo.headCommit();
  const refs = head ? LIVE_REFS : LIVE_REFS.slice(0, -1);
  const log = await repo.runGit(
    ['log', '--no-merges', `--max-count=${MAX_CANDIDATES}`, `--since=${Math.max(0, since - LOOKBACK_SECONDS)}`, '--format=%H %T %ct', ...refs],
    { readOnly: true },
  );
  if (log.code !== 0) return [];
  const out = new Map<string, Candidate>();
  for (const line of log.stdout.toString().split('\n')) {
    const [id, tree, ct] = line.split(' ');
    if (id && tree) out.set(id, { id, tree, timestamp: Number(ct), patchId: null });
  }
  if (withPatchIds && out.size) await fillPatchIds(repo, out);
  return [...out.values()];
}

/**
 * The tree, committer time and (when asked) patch id of each of `ids` this clone has as a
 * commit: what an encrypted note's own `head_tree` and `head_patch_id` would say of the commit
 * it sits on, read from that commit, which is in the clear (docs/privacy.md). Missing ones are left out.
 */
export async function commitFacts(repo: Repo, ids: string[], withPatchIds: boolean): Promise<Map<string, Candidate>> {
  const out = new Map<string, Candidate>();
  for (const id of new Set(ids)) {
    const c = await readCommit(repo.objects, id);
    if (c) out.set(id, { id, tree: c.tree, timestamp: c.committer.timestamp, patchId: null });
  }
  if (withPatchIds && out.size) await fillPatchIds(repo, out);
  return out;
}

/** `git patch-id --stable` of each commit, computed as `write` computes `head_patch_id`. */
async function fillPatchIds(repo: Repo, commits: Map<string, Candidate>): Promise<void> {
  const diff = await repo.runGit(['diff-tree', '--stdin', '-p', '--root', '--no-color', '--no-ext-diff'], {
    input: [...commits.keys()].map((k) => `${k}\n`).join(''),
    readOnly: true,
  });
  const pid = await repo.runGit(['patch-id', '--stable'], { input: diff.stdout, readOnly: true });
  for (const line of pid.stdout.toString().split('\n')) {
    const [patch, commit] = line.split(' ');
    const c = commit ? commits.get(commit) : undefined;
    if (c) c.patchId = patch;
  }
}

/**
 * The non-merge commits `to` has and `from` has not (what a pull or checkout just brought),
 * at most `max`, with trees, and patch ids when asked (the heal hook).
 */
export async function commitsBetween(repo: Repo, from: string, to: string, max: number): Promise<{ commits: Candidate[]; patchIds: () => Promise<void> }> {
  const log = await repo.runGit(['log', '--no-merges', `--max-count=${max}`, '--format=%H %T %ct', to, `^${from}`, '--'], { readOnly: true });
  const out = new Map<string, Candidate>();
  if (log.code === 0) {
    for (const line of log.stdout.toString().split('\n')) {
      const [id, tree, ct] = line.split(' ');
      if (id && tree) out.set(id, { id, tree, timestamp: Number(ct), patchId: null });
    }
  }
  let filled: Promise<void> | null = null;
  return { commits: [...out.values()], patchIds: () => (filled ??= out.size ? fillPatchIds(repo, out) : Promise.resolve()) };
}

/** Which of `targets` are ancestors of (or equal to) `head`. */
export async function ancestorsOf(repo: Repo, targets: string[], head: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const t of targets) {
    if ((await repo.objects.read(t))?.type !== 'commit') continue;
    if ((await repo.runGit(['merge-base', '--is-ancestor', t, head], { readOnly: true })).code === 0) out.add(t);
  }
  return out;
}

/** Which of `targets` no branch, tag, remote branch or HEAD reaches (or are missing). */
export async function unreachableFromLiveRefs(repo: Repo, targets: string[]): Promise<Set<string>> {
  const notes = targets.map((target) => ({ target, blob: '', path: target }));
  return new Set((await findOrphanNotes(repo, notes as NoteRef[])).map((n) => n.target));
}
