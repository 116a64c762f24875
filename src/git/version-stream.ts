/**
 * Every version of the notes history with its note read, newest first, in bulk: one
 * `git log` over `refs/notes/handoff` names the commits (our trailers say each version's
 * target and branch), one `git cat-file --batch` reads each note by its path in that
 * commit's tree. Reading 50,000 versions one object at a time through the object store
 * (every commit, two tree levels and a blob inflated in JavaScript) took 40 s of CPU; this
 * way git does the object work and the versions flow through, never held all at once.
 *
 * It answers what `HandoffStore.versions()` + `read()` answer, in the same order:
 * - the order is git's default `log` order, which is the store's walk: newest committer
 *   date first, ties in the order commits were met, parents in their order;
 * - a commit is a version by `HandoffStore.versionOf`'s rule, from the same message;
 * - a version without our trailers (a native `git notes add`) and a note not at the path
 *   asked for go through the store itself, so whatever the store would say, this says.
 * A note is looked for at the fan-out depth the previous one was found at, then at the
 * other usual depth: a tree holding one note at two depths (neither git nor this tool
 * writes one) would be read at the depth found first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NOTES_REF, type Repo } from './repo.js';
import { parseCommit, parseTrailers } from './objects.js';
import { HandoffStore } from './handoff-store.js';
import { interpretNote, type NoteReading } from './note-reading.js';
import { Moves } from './note-moves.js';
import { findNote } from './notes-tree.js';
import { isArmoredAge, type DecryptFailure } from '../core/age.js';
import { noteKeys } from './note-keys.js';
import { parseLineage } from '../core/lineage.js';
import { DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { GitFailed } from '../errors.js';
import { isObjectId } from '../core/object-id.js';

export interface StreamedVersion extends NoteReading {
  id: string;
  /** where its note sits now (a later copy by git moved it: docs/format.md) */
  target: string;
  writtenAt: string;
  continues: string[] | null;
  beside: string[];
  /** committer time, seconds */
  timestamp: number;
  native: boolean;
}

/** A version whose note was not asked for: what its commit alone says. */
export interface Unread {
  id: string;
  target: string;
  writtenAt: string;
  continues: string[] | null;
  beside: string[];
  timestamp: number;
  branch: string | null;
  native: false;
}

/** How many versions may be in flight (asked of cat-file, not yet handed on). */
const WINDOW = 256;
/**
 * Versions handed on between two turns of the event loop. The caller's work on each
 * version (parsing, writing a row) runs without a turn, and cat-file's answers are read
 * only in one: its pipe (64 KiB, ~25 versions) filled and git waited, idle, until Node
 * waited for it in turn (50,000 versions under strace: cat-file blocked in write() 11.2 s
 * without the turns, 2.4 s with them; Node's reads of its output 45,800 -> 2,800).
 */
const TURN_EVERY = 16;
/**
 * How many encrypted notes are decrypted at once, ahead of their turn: the library's
 * X25519 runs on libuv's threads, so a few at a time keep them busy while this thread
 * parses and writes (one at a time left them idle a third of the time). At most AHEAD are
 * decrypted before the reader asks for them (one that stops early wasted no more).
 */
const DECRYPTING = 8;
const AHEAD = 32;

/** Whether this repository's history can be read this way; else the store's walk answers. */
export function canStream(repo: Repo): boolean {
  // A shallow notes history ends where git stops and the store's walk fails: keep the store's answer.
  return !existsSync(join(repo.paths.commonDir, 'shallow'));
}

/** A version on its way through: asked of cat-file, answered, then handed on in order. */
interface Slot {
  v: Unread;
  /** the fan-out depth last asked (0: `<target>`, 1: `ab/<38 hex>`) */
  depth: number;
  tries: number;
  answered: boolean;
  /** the note's bytes, once found (they wait outside the JavaScript heap until their turn) */
  data: Buffer | null;
  /** the id of the blob `data` was read from */
  blob?: string;
  /** what the store says, when the note was not where it was asked for, or the version is native */
  viaStore: Promise<StreamedVersion | null> | null;
  /** hand on `v` as it is: its note was not wanted */
  plain: boolean;
  /** its commit's bytes were asked too (for `commits`): false until they came */
  commitDone?: boolean;
  commitData?: Buffer;
  /** an encrypted note's decryption, started as soon as its bytes came (settle awaits it in order) */
  decrypted?: Promise<{ text: string } | DecryptFailure>;
}

/**
 * The versions reachable from `tip`, newest first. `wantNote` says which of our versions
 * need their note, from what their commit says (the others come as `Unread`, their branch
 * from the trailer); a native
 * version's note is always read (its branch is in it).
 */
export async function* streamVersions(
  repo: Repo,
  tip: string,
  wantNote: (v: Unread, trailers: Record<string, string>) => boolean = () => true,
  /** leave out what this commit has (the versions a remote lacks: `tip ^not`) */
  not: string | null = null,
  /** filled with the id of each note blob this reader read itself, by version (not those the store read) */
  readBlobs?: Map<string, string>,
  /**
   * filled with the bytes of each of our versions' commits whose note was read, by version,
   * as each is handed on (the caller takes them out: log's provenance reads the author and
   * the signature from them instead of inflating 50,000 commits itself)
   */
  commits?: Map<string, Buffer>,
): AsyncGenerator<StreamedVersion | Unread> {
  const store = new HandoffStore(repo);
  const maxBytes = Math.max(DEFAULT_MAX_BYTES, await repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES));
  // Both read the objects themselves, as the store's reader does: a `git replace` must not
  // show the outgoing secret scan a clean note where the push sends the real one.
  const opts = { realObjects: true };
  const log = repo.startReadOnlyGit(
    ['--no-replace-objects', 'log', '-z', '--no-show-signature', '--no-color', '--format=%H %ct %P%n%B', tip, ...(not ? [`^${not}`] : []), '--'],
    opts,
  );
  log.stdin.end();
  const cat = repo.startReadOnlyGit(['cat-file', '--batch'], opts);
  let logErr = '';
  let catErr = '';
  log.stderr.on('data', (b: Buffer) => (logErr += b.toString()));
  cat.stderr.on('data', (b: Buffer) => (catErr += b.toString()));
  const logClosed = new Promise<number>((resolve, reject) => {
    log.on('error', reject);
    log.on('close', (code) => resolve(code ?? 128));
  });
  logClosed.catch(() => {});

  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  // git's note copies met so far (newest first): the versions they moved are reported where their notes went
  const moves = new Moves();
  const fromStore = async (id: string): Promise<StreamedVersion | null> => {
    const commit = await store.readCommit(id);
    const c = await store.classify(id, commit);
    moves.add(c.moves);
    if (!c.version) return null;
    const { commit: _, blob: __, ...r } = await store.read(c.version);
    return r;
  };
  const byStore = (s: Slot) => {
    s.viaStore = fromStore(s.v.id);
    s.viaStore.catch(() => {}); // awaited in order below
  };

  // Requests to cat-file, answered in the order asked; `pending` holds them until written.
  const asked: { s: Slot; commit: boolean }[] = [];
  let pending: string[] = [];
  let depth = 1;
  const ask = (s: Slot) => {
    s.depth = depth;
    asked.push({ s, commit: false });
    pending.push(`${s.v.id}:${depth ? `${s.v.target.slice(0, 2)}/${s.v.target.slice(2)}` : s.v.target}\n`);
  };
  const askCommit = (s: Slot) => {
    s.commitDone = false;
    asked.push({ s, commit: true });
    pending.push(`${s.v.id}\n`);
  };
  /** Whether a slot has every answer it waits for. */
  const done = (s: Slot) => s.answered && s.commitDone !== false;
  /** The commit's bytes came (null: missing, or not a commit: provenance reads it itself). */
  const answerCommit = (s: Slot, type: string | null, data: Buffer | null) => {
    if (type === 'commit' && data) s.commitData = Buffer.from(data);
    s.commitDone = true;
  };
  const flush = () => {
    if (!pending.length) return;
    cat.stdin.write(pending.join(''));
    pending = [];
  };
  /** Encrypted notes that came, oldest first, not yet being decrypted. */
  const encrypted: Slot[] = [];
  let decrypting = 0;
  /** decryptions begun whose version was not handed on yet */
  let ahead = 0;
  /**
   * Starts decrypting the encrypted notes that came, oldest first, up to DECRYPTING at a
   * time: their turn (settle) finds them decrypted or on the way.
   */
  const decryptAhead = () => {
    while (decrypting < DECRYPTING && ahead < AHEAD && encrypted.length) {
      const s = encrypted.shift()!;
      decrypting++;
      ahead++;
      s.decrypted = noteKeys(repo).decrypt(s.data!.toString('latin1'));
      s.decrypted.then(
        () => (decrypting--, decryptAhead(), poke()),
        () => (decrypting--, poke()),
      );
    }
  };
  const answer = (s: Slot, type: string | null, data: Buffer | null, oid?: string) => {
    if (type === 'blob') {
      depth = s.depth;
      s.data = data;
      s.blob = oid;
      if (data && isArmoredAge(data)) encrypted.push(s);
    } else if (type === null && ++s.tries < 2) {
      // Not at that depth: ask the other one (a note history grows from flat to fanned out).
      depth = 1 - s.depth;
      ask(s);
      return;
    } else {
      // A tree or a submodule entry at that path, or no note at either depth: the store decides.
      byStore(s);
    }
    s.answered = true;
  };
  let rest: Buffer | null = null;
  cat.stdout.on('data', (chunk: Buffer) => {
    const buf: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
    let at = 0;
    for (;;) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) break;
      const header = buf.toString('latin1', at, nl);
      const sp = header.lastIndexOf(' ');
      const last = header.slice(sp + 1);
      if (last === 'missing' || last === 'ambiguous') {
        at = nl + 1;
        const a = asked.shift();
        if (a?.commit) answerCommit(a.s, null, null);
        else if (a) answer(a.s, null, null);
        continue;
      }
      const size = Number(last);
      if (buf.length < nl + 2 + size) break;
      const a = asked.shift();
      const type = header.slice(header.lastIndexOf(' ', sp - 1) + 1, sp);
      if (a?.commit) answerCommit(a.s, type, buf.subarray(nl + 1, nl + 1 + size));
      else if (a) answer(a.s, type, buf.subarray(nl + 1, nl + 1 + size), header.slice(0, header.indexOf(' ')));
      at = nl + 2 + size;
    }
    rest = at < buf.length ? buf.subarray(at) : null;
    flush();
    decryptAhead();
    poke();
  });
  cat.on('error', (e) => ((failure = new GitFailed(`git cat-file failed: ${e.message}`)), poke()));
  cat.on('close', (code) => {
    if (asked.length) failure ??= new GitFailed(`git cat-file failed: ${catErr.trim() || `exit ${code}`}`);
    poke();
  });
  cat.stdin.on('error', () => {});

  const slots: Slot[] = [];
  const noteBlob = (s: Slot) => async () => s.blob ?? (await findNote(repo.objects, (await store.readCommit(s.v.id)).tree, s.v.writtenAt))?.blob;
  const settle = async (s: Slot): Promise<StreamedVersion | Unread | null> => {
    if (s.viaStore) {
      const r = await s.viaStore;
      return r && moves.apply(r, async () => (await findNote(repo.objects, (await store.readCommit(r.id)).tree, r.writtenAt))?.blob);
    }
    const v = moves.moved(s.v.writtenAt) ? await moves.apply(s.v, noteBlob(s)) : s.v;
    if (s.plain) return v;
    if (s.blob) readBlobs?.set(s.v.id, s.blob);
    if (s.commitData) commits?.set(s.v.id, s.commitData);
    if (isArmoredAge(s.data!)) {
      // An encrypted note: decrypted with the user's identity (begun ahead, see decryptAhead), its one line naming the commit's author and date.
      const commit = s.commitData ? parseCommit(s.commitData) : await store.readCommit(s.v.id);
      const begun = s.decrypted;
      if (begun) {
        ahead--;
        decryptAhead();
      } else {
        // Its turn came first: decrypted below, not again ahead.
        const i = encrypted.indexOf(s);
        if (i >= 0) encrypted.splice(i, 1);
      }
      const keys = begun ? { decrypt: () => begun } : noteKeys(repo);
      const { commit: _, ...r } = await interpretNote({ ...v, commit }, s.data!, maxBytes, keys);
      return r;
    }
    return interpretNote(v, s.data!, maxBytes);
  };
  /** Waits until the oldest slot is answered. */
  const head = async () => {
    while (!done(slots[0])) {
      if (failure) throw failure;
      flush();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  let handed = 0;
  /** Every TURN_EVERY versions, a turn of the event loop: cat-file's output is read and git works on while the caller does. */
  const turn = () => (++handed % TURN_EVERY ? undefined : new Promise<void>((resolve) => setImmediate(resolve)));
  let finished = false;
  try {
    let tail: Buffer | null = null;
    const take = (rec: string) => {
      const nl = rec.indexOf('\n');
      const [id, ct, ...parents] = (nl < 0 ? rec : rec.slice(0, nl)).split(' ');
      if (!/^[0-9a-f]{40,64}$/.test(id)) return;
      const trailers = parseTrailers(nl < 0 ? '' : rec.slice(nl + 1));
      const kind = trailers['Handoff-Kind'];
      // What HandoffStore.versionOf decides, from the same message.
      if (kind) {
        const target = trailers['Handoff-Target'];
        if (kind !== 'version' || !isObjectId(target)) return;
        // (fields set one by one: a literal that spreads an object and then sets more keys
        // takes V8's slow path, ~5 us a version, and the object it makes is slow to read)
        const { continues, beside } = parseLineage(trailers);
        const v: Unread = {
          id,
          target,
          writtenAt: target,
          continues,
          beside,
          timestamp: Number(ct),
          branch: trailers['Handoff-Branch'] ?? null,
          native: false,
        };
        const s: Slot = { v, depth, tries: 0, answered: false, data: null, viaStore: null, plain: !wantNote(v, trailers) };
        slots.push(s);
        if (s.plain) s.answered = true;
        else {
          ask(s);
          // An encrypted version's one line names its author: its commit comes with its note.
          if (commits || trailers['Handoff-Visibility'] !== undefined) askCommit(s);
        }
        return;
      }
      if (parents.filter(Boolean).length > 1) return;
      // A native note: the store diffs the trees (rare; it costs what it always cost).
      const s: Slot = {
        v: { id, target: '', writtenAt: '', continues: null, beside: [], timestamp: Number(ct), branch: null, native: false },
        depth,
        tries: 0,
        answered: true,
        data: null,
        viaStore: null,
        plain: false,
      };
      byStore(s);
      slots.push(s);
    };
    for await (const chunk of log.stdout as AsyncIterable<Buffer>) {
      const buf: Buffer = tail ? Buffer.concat([tail, chunk]) : chunk;
      let at = 0;
      for (let nul = buf.indexOf(0, at); nul >= 0; nul = buf.indexOf(0, at)) {
        take(buf.toString('utf8', at, nul));
        at = nul + 1;
      }
      tail = at < buf.length ? buf.subarray(at) : null;
      flush();
      while (slots.length && (done(slots[0]) || slots.length > WINDOW)) {
        await head();
        await turn();
        const r = await settle(slots.shift()!);
        if (r) yield r;
      }
    }
    if (tail) take(tail.toString('utf8'));
    const code = await logClosed;
    if (code !== 0) throw new GitFailed(`git log of ${NOTES_REF} failed: ${logErr.trim() || `exit ${code}`}`);
    flush();
    while (slots.length) {
      await head();
      await turn();
      const r = await settle(slots.shift()!);
      if (r) yield r;
    }
    finished = true;
  } finally {
    cat.stdin.end();
    if (!finished) {
      if (log.exitCode === null) log.kill();
      if (cat.exitCode === null) cat.kill();
    }
  }
}

/** Whether a streamed version came with its note read. */
export const isRead = (v: StreamedVersion | Unread): v is StreamedVersion => 'valid' in v;
