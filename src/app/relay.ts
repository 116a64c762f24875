/**
 * `git handoff relay`: when the latest version asks for a relay and was not relayed yet,
 * take that version's lock, render the next-session prompt to a file, start the agent in a
 * new tmux session, and wait for its `git handoff ack` (docs/relay.md). Accepted: the
 * relay is recorded and the prompt archived. Failed or timed out: recorded with the reason,
 * exit 4, and not tried again without `--retry`.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore, type ReadVersion } from '../git/handoff-store.js';
import { VersionReader } from '../history/reader.js';
import { RelayStore } from '../state/relay-store.js';
import { Tmux } from './tmux.js';
import { showLatest, type PickedLatest } from './show.js';
import { bookmarkText, notices } from './show-report.js';
import { parseTasks, renderRelayPrompt } from '../core/relay-prompt.js';
import { relayRequest, type RelayRequest } from './relay-request.js';
import { decideRelay, relayIdFor, settle, type Ack, type RelayAttempt, type RelayRecord } from '../core/relay.js';
import { isHandoffError, RelayFailed, UsageError } from '../errors.js';
import { readWorkTreeFile } from '../state/bounded-file.js';
import { isUsersOwn, provenanceLine } from '../core/provenance.js';

export const DEFAULT_TIMEOUT_S = 60;
export const POLL_INTERVAL_MS = 5000;

export interface RelayOptions {
  agentCmd?: string;
  timeoutS: number;
  retry: boolean;
  /** progress lines for the user */
  log: (line: string) => void;
  signal?: AbortSignal;
  /** how often the ack is looked for */
  ackPollMs?: number;
}

export type RelayOutcome =
  | { status: 'idle'; why: string }
  | { status: 'busy'; why: string }
  | { status: 'skipped'; why: string }
  | { status: 'accepted'; relayId: string; session: string; version: string };

interface Settings {
  agentCmd: string;
  prefix: string;
  stateFile: string | null;
  tmux: Tmux;
}

async function settings(repo: Repo, opts: RelayOptions): Promise<Settings> {
  const agentCmd = opts.agentCmd ?? (await repo.configGet('handoff.relay.agentCmd'));
  if (!agentCmd)
    throw new UsageError('relay: no agent command: pass --agent-cmd CMD or set handoff.relay.agentCmd (e.g. claude "$(cat "$HANDOFF_PROMPT_FILE")")');
  const tmux = new Tmux((await repo.configGet('handoff.relay.tmuxSocket')) || null);
  await tmux.check();
  return {
    agentCmd,
    prefix: (await repo.configGet('handoff.relay.sessionPrefix')) || 'handoff',
    stateFile: (await repo.configGet('handoff.relay.stateFile')) || null,
    tmux,
  };
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
/** Waits `ms`, or less when the signal aborts; leaves no listener behind (the wait loop sleeps hundreds of times). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise<void>((res) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      res();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface Candidate {
  version: ReadVersion;
  /** why it asks: its own trailer, or that of the version whose note it carries (app/relay-request.ts) */
  request: RelayRequest;
  store: HandoffStore;
  /** the reader that picked it: the prompt's facts (provenance included) come from the same one */
  reader: VersionReader;
  /** what `show` would pick, kept so the prompt is told what `show` tells of this version */
  picked: PickedLatest;
}

/**
 * What `relay` finds to relay: the latest version of this branch (the same pick as `show`'s)
 * when it asks for a relay, itself or as the move of a version that asked; else why not.
 */
export async function relayCandidate(repo: Repo): Promise<Candidate | string> {
  if (!repo.workTree) return 'a bare repository has no work tree to relay into';
  const versions = new VersionReader(repo);
  const store = versions.store;
  const picked = await versions.latest({ branch: repo.headBranch() });
  const { version, fallback } = picked;
  if (!version || fallback) return 'no handoff on this branch';
  const request = await relayRequest(store, version, version.branch ?? null);
  if (!request) return `the latest version ${version.id.slice(0, 12)} does not ask for a relay`;
  // Nothing runs on someone else's word: the request (and the handoff the prompt carries)
  // must be the current user's own, made in this clone or signed by a key the user trusts.
  for (const id of new Set([request.asking, version.id])) {
    const p = await versions.provenance.one(id);
    if (!isUsersOwn(p)) {
      const what = id === request.asking ? 'its relay request' : 'the handoff it would relay';
      return `the latest version ${version.id.slice(0, 12)} asks for a relay, but ${what} was not written by the current user (${provenanceLine(p)}): relay acts only on requests made in this clone or signed by a key you trust (gpg.ssh.allowedSignersFile); to relay this work, write it here with 'git handoff write --relay'`;
    }
  }
  return { version, request, store, reader: versions, picked };
}

/** One pass: relay the latest version if it asks for it. Throws RelayFailed (exit 4) on failure or timeout. */
export async function relayOnce(repo: Repo, opts: RelayOptions, cfg?: Settings): Promise<RelayOutcome> {
  const s = cfg ?? (await settings(repo, opts));
  const c = await relayCandidate(repo);
  if (typeof c === 'string') return { status: 'idle', why: c };
  const v = c.version;
  const store = new RelayStore(repo.paths.commonDir);
  const earlier = () => c.request.chain.slice(1).flatMap((id) => store.readRecord(id) ?? []);
  const seen = decideRelay(store.readRecord(v.id), { retry: opts.retry }, earlier());
  // a 'waiting' attempt may belong to a relay that died: look under the lock
  if (!seen.start && seen.kind !== 'waiting') return { status: 'skipped', why: seen.why };

  const lock = store.tryLock(v.id);
  if (!lock.acquired)
    return { status: 'busy', why: `version ${v.id.slice(0, 12)} is being relayed${lock.owner ? ` by pid ${lock.owner.pid} on ${lock.owner.host}` : ''}` };
  let record: RelayRecord | null = null;
  let attempt: RelayAttempt | null = null;
  try {
    record = recoverDead(store, store.readRecord(v.id));
    // the relay of a version this one was moved from may have died waiting too: settled under its own lock
    for (const e of earlier()) {
      if (e.attempts[e.attempts.length - 1]?.status !== 'waiting') continue;
      const held = store.tryLock(e.version);
      if (!held.acquired) return { status: 'busy', why: `version ${e.version.slice(0, 12)}, whose note the latest version carries, is being relayed` };
      try {
        recoverDead(store, e);
      } finally {
        store.unlock(e.version);
      }
    }
    const d = decideRelay(record, { retry: opts.retry }, earlier());
    if (!d.start) return { status: 'skipped', why: d.why };
    const relayId = relayIdFor(v.id, d.attempt);
    const prompt = store.writePrompt(relayId, await renderPrompt(repo, c, relayId, s.stateFile));
    let session = await freeSessionName(s.tmux, s.prefix);
    attempt = { relay_id: relayId, status: 'waiting', reason: null, session, prompt, pid: process.pid, started_at: now(), acked_at: null, finished_at: null };
    record = { version: v.id, branch: v.branch ?? null, attempts: [...(record?.attempts ?? []), attempt] };
    store.writeRecord(record);
    opts.log(`relay ${relayId}: starting tmux session ${session} for version ${v.id.slice(0, 12)}`);

    let started = await s.tmux.newSession(session, repo.workTree!, { HANDOFF_PROMPT_FILE: prompt, HANDOFF_RELAY_ID: relayId }, s.agentCmd);
    // another relay (of another version) took the name between our look and our start
    for (let i = 0; i < 5 && started.code !== 0 && /duplicate session/.test(started.stderr); i++) {
      session = await freeSessionName(s.tmux, s.prefix);
      attempt = { ...attempt, session };
      record = { ...record, attempts: [...record.attempts.slice(0, -1), attempt] };
      store.writeRecord(record);
      started = await s.tmux.newSession(session, repo.workTree!, { HANDOFF_PROMPT_FILE: prompt, HANDOFF_RELAY_ID: relayId }, s.agentCmd);
    }
    let ack: Ack | null;
    if (started.code !== 0) {
      ack = claim(store, relayId, 'failed', `tmux new-session failed: ${started.stderr.trim().split('\n')[0] || `exit ${started.code}`}`);
    } else {
      opts.log(`relay ${relayId}: waiting up to ${opts.timeoutS}s for 'git handoff ack' from ${session}`);
      ack = await waitForAck(store, s.tmux, relayId, session, opts);
    }
    const done = settle(attempt, ack, now());
    record = { ...record, attempts: [...record.attempts.slice(0, -1), done] };
    if (done.status === 'accepted') {
      record.attempts[record.attempts.length - 1] = { ...done, prompt: store.archivePrompt(relayId) };
    }
    store.writeRecord(record);
    attempt = null;
    if (done.status !== 'accepted') {
      throw new RelayFailed(
        `relay ${relayId} ${done.status === 'timeout' ? `timed out: no ack within ${opts.timeoutS}s` : `${done.status}: ${done.reason}`}; run 'git handoff relay --retry' to try again`,
        {
          relay_id: relayId,
          status: done.status,
          reason: done.reason,
          session,
        },
      );
    }
    return { status: 'accepted', relayId, session, version: v.id };
  } finally {
    if (attempt && record) {
      // interrupted (a signal, an error) while waiting: record it, keep a late ack out
      const reason = 'the relay was interrupted';
      const mine = store.publishAck(attempt.relay_id, { status: 'failed', reason, at: now() });
      const done: RelayAttempt = mine
        ? { ...attempt, status: 'interrupted', reason, finished_at: now() }
        : settle(attempt, store.readAck(attempt.relay_id), now());
      store.writeRecord({ ...record, attempts: [...record.attempts.slice(0, -1), done] });
    }
    store.unlock(v.id);
  }
}

/** Under the lock, an attempt still 'waiting' belongs to a relay process that died: settle it from its ack, if any. */
function recoverDead(store: RelayStore, record: RelayRecord | null): RelayRecord | null {
  const last = record?.attempts[record.attempts.length - 1];
  if (!record || !last || last.status !== 'waiting') return record;
  const ack = store.readAck(last.relay_id);
  const done: RelayAttempt =
    ack && ack.status !== 'timeout'
      ? settle(last, ack, now())
      : { ...last, status: 'interrupted', reason: 'the relay process stopped while waiting', finished_at: now() };
  const fixed = { ...record, attempts: [...record.attempts.slice(0, -1), done] };
  store.writeRecord(fixed);
  return fixed;
}

/** Publishes the relay's own verdict unless an ack got there first; returns whichever stands. */
function claim(store: RelayStore, relayId: string, status: Ack['status'], reason: string): Ack {
  const mine: Ack = { status, reason, at: now() };
  return store.publishAck(relayId, mine) ? mine : (store.readAck(relayId) ?? mine);
}

async function waitForAck(store: RelayStore, tmux: Tmux, relayId: string, session: string, opts: RelayOptions): Promise<Ack> {
  const deadline = Date.now() + opts.timeoutS * 1000;
  const poll = opts.ackPollMs ?? 200;
  let nextSessionCheck = Date.now() + 1000;
  for (;;) {
    const ack = store.readAck(relayId);
    if (ack) return ack;
    if (opts.signal?.aborted) throw new RelayFailed(`relay ${relayId} interrupted`);
    if (Date.now() >= deadline) return claim(store, relayId, 'timeout', 'timeout');
    if (Date.now() >= nextSessionCheck) {
      nextSessionCheck = Date.now() + 1000;
      if (!(await tmux.hasSession(session))) {
        return store.readAck(relayId) ?? claim(store, relayId, 'failed', `the agent session ${session} ended without an ack`);
      }
    }
    await sleep(Math.min(poll, Math.max(0, deadline - Date.now())), opts.signal);
  }
}

async function freeSessionName(tmux: Tmux, prefix: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = `${prefix}-${n}`;
    if (!(await tmux.hasSession(name))) return name;
  }
}

/**
 * The handoff in the prompt is the bookmark `git handoff show` prints, notices first, from the
 * same owner (app/show-report.ts): the next session is told what a person at the terminal is
 * (two sessions diverged, versions the remote has that this clone lacks, a handoff due...).
 * Read under the lock, so idle passes of the loop cost no more than the pick.
 */
async function renderPrompt(repo: Repo, c: Candidate, relayId: string, stateFile: string | null): Promise<string> {
  const v = c.version;
  const shown = await showLatest(repo, c.reader, c.picked);
  let tasks: ReturnType<typeof parseTasks>['remaining'] = [];
  if (stateFile) {
    try {
      const bytes = repo.workTree ? readWorkTreeFile(repo.workTree, stateFile) : null;
      if (bytes) tasks = parseTasks(bytes.toString('utf8')).remaining;
    } catch {
      /* no state file: the bookmark alone */
    }
  }
  return renderRelayPrompt({
    relayId,
    version: v.id,
    branch: v.branch ?? null,
    workTree: repo.workTree!,
    previousSession: v.handoff.session_id ?? null,
    bookmark: bookmarkText(shown)!,
    notices: notices(shown).length,
    tasks,
    stateFile,
  });
}

/** Without --once: a pass every 5 s until the signal; failures are reported and the loop goes on. */
export async function relayLoop(repo: Repo, opts: RelayOptions): Promise<void> {
  const cfg = await settings(repo, opts);
  let last = '';
  let retry = opts.retry;
  while (!opts.signal?.aborted) {
    try {
      const r = await relayOnce(repo, { ...opts, retry }, cfg);
      const line = r.status === 'accepted' ? `relay ${r.relayId}: accepted by ${r.session}` : r.why;
      if (line !== last) opts.log(line);
      last = line;
    } catch (e) {
      if (!isHandoffError(e, RelayFailed)) throw e;
      opts.log(`git handoff: ${e.message}`);
      last = e.message;
    }
    retry = false; // --retry applies to the first pass only
    await sleep(POLL_INTERVAL_MS, opts.signal);
  }
}

export interface RelayStatusRow extends RelayAttempt {
  version: string;
  branch: string | null;
}

/** `relay status`: the attempts of every version, newest first. */
export function relayStatus(repo: Repo, limit = 20): RelayStatusRow[] {
  const rows: RelayStatusRow[] = [];
  for (const r of new RelayStore(repo.paths.commonDir).listRecords()) for (const a of r.attempts) rows.push({ ...a, version: r.version, branch: r.branch });
  return rows.sort((a, b) => b.started_at.localeCompare(a.started_at) || b.relay_id.localeCompare(a.relay_id)).slice(0, limit);
}
