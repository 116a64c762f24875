/**
 * The agent hooks inside the real agent programs: each CLI, installed from npm
 * into .agent-clis/ by scripts/agent-clis.mjs, runs offline against a fake model server on
 * 127.0.0.1 that records what it is sent, with a scratch HOME, in a scratch repository
 * after `git handoff init --agent NAME`. Each test asserts that the bookmark reaches the
 * model, that a session-end phrase adds the write instruction and an ordinary prompt does
 * not, that a stop after the phrase is blocked once (the block's reason reaches the
 * model), that our MCP server's tools reach the model (the program started `git handoff
 * mcp` from the file init registered it in), that nothing on stderr complains about our
 * settings, and that `uninstall` leaves the files byte for byte as they were. A CLI that is not installed skips, named.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI_DIR = join(ROOT, '.agent-clis');
if (!existsSync(join(CLI_DIR, 'node_modules'))) spawnSync(process.execPath, [join(ROOT, 'scripts/agent-clis.mjs')], { stdio: 'inherit', timeout: 900_000 });
const bin = (name: string) => join(CLI_DIR, 'node_modules/.bin', name);
const has = (path: string) => existsSync(path);

const BOOKMARK = 'wire the fake model into the parser';
const WRITE_NOW = 'the user is ending the session';
const BLOCKED = 'no handoff was written in it';
/** stderr lines that would be about our settings or hooks */
const COMPLAINT = /git.handoff|deprecated|codex_hooks|hooks\.json|settings(\.local)?\.json|hook[^\n]*(fail|error|invalid|timed? ?out)|invalid[^\n]*hook/i;

let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel();
});
afterAll(async () => {
  await model?.close();
  const table = hookFigures();
  if (table.length) console.log(`agent hook calls, per call (ms, medians, wall time inside a timing wrapper):\n${table.join('\n')}`);
  if (process.env.HANDOFF_AGENT_CLI_TIMES) writeFileSync(process.env.HANDOFF_AGENT_CLI_TIMES, `${table.join('\n')}\n`);
});

/**
 * Each call of our hook command the program made, timed: a wrapper of `git-handoff-hook`
 * and one of `git-handoff` first on PATH log `<command>|<arguments>|<ms>`. A hook call that
 * went to Node is the one the `git-handoff hook ...` line just before it belongs to.
 */
const timingLogs: { agent: string; log: string }[] = [];
function timingPath(agent: string): string {
  const dir = tempDir('handoff-hook-timing-');
  const log = join(dir, 'calls.log');
  for (const name of ['git-handoff-hook', 'git-handoff']) {
    const real = join(inject('binDir'), name);
    writeFileSync(
      join(dir, name),
      `#!/bin/sh\nt0=$(date +%s%N)\n'${real}' "$@"\nrc=$?\nt1=$(date +%s%N)\nprintf '%s|%s|%s\\n' '${name}' "$*" $(( (t1 - t0) / 1000000 )) >>'${log}'\nexit $rc\n`,
    );
    chmodSync(join(dir, name), 0o755);
  }
  timingLogs.push({ agent, log });
  return dir;
}

interface HookCall {
  event: string;
  ms: number;
  node: boolean;
}
function hookCalls(log: string): HookCall[] {
  if (!existsSync(log)) return [];
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('|'));
  const out: HookCall[] = [];
  lines.forEach(([cmd, args, ms], i) => {
    if (cmd !== 'git-handoff-hook') return;
    const event = args.split(' ')[0];
    const before = lines[i - 1];
    out.push({ event, ms: Number(ms), node: Boolean(before && before[0] === 'git-handoff' && before[1].startsWith(`hook ${event} `)) });
  });
  return out;
}
const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
function hookFigures(): string[] {
  const rows: string[] = [];
  for (const { agent, log } of timingLogs) {
    const calls = hookCalls(log);
    const events = [...new Set(calls.map((c) => c.event))];
    const part = (cs: HookCall[], where: string) => (cs.length ? `${where} ${medianOf(cs.map((c) => c.ms))} (${cs.length})` : '');
    for (const e of events) {
      const cs = calls.filter((c) => c.event === e);
      rows.push(
        `  ${agent} ${e}: ${[
          part(
            cs.filter((c) => !c.node),
            'shell',
          ),
          part(
            cs.filter((c) => c.node),
            'node',
          ),
        ]
          .filter(Boolean)
          .join(', ')}`,
      );
    }
  }
  return rows;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a CLI with a time limit; the fake model answers in this process, so never spawnSync. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<Run> {
  return new Promise((done) => {
    // PWD too: OpenCode takes its project folder from $PWD, not from the working directory
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...opts.env, PWD: opts.cwd }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (process.env.HANDOFF_AGENT_CLI_DUMP)
        writeFileSync(
          join(process.env.HANDOFF_AGENT_CLI_DUMP, `${cmd.split('/').pop()}-${Date.now()}.json`),
          JSON.stringify({ args, code, stdout, stderr, requests: model.requests }, null, 1),
        );
      done({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** Every file under the work tree (but .git/objects and logs) and .git/info/exclude, as text. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.git') continue;
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(join(dir, p), 'utf8');
    }
  };
  walk('');
  out['.git/info/exclude'] = existsSync(join(dir, '.git/info/exclude')) ? readFileSync(join(dir, '.git/info/exclude'), 'utf8') : '(none)';
  return out;
}

/** A repository with a handoff whose next step is BOOKMARK, a tracked instruction file, and the agent's hooks installed. */
function project(agent: string, opts: { due?: boolean } = {}) {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'README.md': '# scratch\n' });
  expect(handoff(repo, ['write', '--summary', 'parser half done', '--next-step', BOOKMARK]).code).toBe(0);
  // a commit since the handoff: a handoff is due
  if (opts.due) repo.commit('feat: more', { 'b.txt': 'b\n' });
  const before = snapshot(repo.dir);
  const init = handoff(repo, ['init', '--agent', agent]);
  expect(init.code, init.stderr).toBe(0);
  const home = tempDir('handoff-agent-home-');
  const timing = timingPath(agent);
  const env: NodeJS.ProcessEnv = {
    ...repo.tick(),
    PATH: `${timing}:${cliPath()}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    TERM: 'dumb',
    CI: '1',
  };
  delete env.NO_COLOR;
  // `npm test` / `npx vitest` hand their npm_* settings down (the project's package.json among
  // them): a CLI that runs npm itself (OpenCode does) must not see them
  for (const k of Object.keys(env)) if (/^npm_/i.test(k)) delete env[k];
  return { repo, home, env, before, calls: () => hookCalls(join(timing, 'calls.log')) };
}

/**
 * The block's reason reached the model, once: a later request carries it no more often
 * than the first that had it (a program may show one reason twice in one request).
 */
function expectBlockedOnce(sent: string[]): void {
  const counts = sent.map((t) => t.split(BLOCKED).length - 1).filter((n) => n > 0);
  expect(counts.length).toBeGreaterThan(0);
  expect(Math.max(...counts)).toBe(counts[0]);
}

/** Notices a program prints for any project hooks, whoever wrote them (not complaints about ours). */
const NOTICES = [
  // Gemini CLI lists a workspace's hooks by name on every run, with this advice
  /please review the project settings \(\.gemini\/settings\.json\) and remove them/,
  /^\s+- git-handoff-[a-z-]+$/,
  // and shows the reason our AfterAgent hook blocked with (the blocked stop, as meant)
  /Agent execution blocked: git handoff: the user ended the session but no handoff was written/,
];

/** Our MCP server's tools reached the model: the program started `git handoff mcp` from the file init registered it in. */
const MCP_TOOL = 'handoff_show';

function complaints(stderr: string): string[] {
  return stderr.split('\n').filter((l) => COMPLAINT.test(l) && !NOTICES.some((n) => n.test(l)));
}

/**
 * The uninstall of `init --agent`: the files are as they were, byte for byte, but for what
 * the program itself wrote into the project while it ran (`programs`: path -> what is left
 * of it, our part taken out), which stays, as uninstall leaves others' changes.
 */
function expectExactUninstall(repo: TestRepo, before: Record<string, string>, programs: Record<string, unknown> = {}): void {
  const u = handoff(repo, ['uninstall']);
  expect(u.code, u.stderr).toBe(0);
  const after = snapshot(repo.dir);
  for (const [path, left] of Object.entries(programs)) {
    if (path in after) expect(typeof left === 'string' ? after[path] : JSON.parse(after[path])).toEqual(left);
    delete after[path];
  }
  expect(after).toEqual(before);
}

const claudeBin = bin('claude');
describe.skipIf(!has(claudeBin))(`Claude Code (real CLI${has(claudeBin) ? '' : ': not installed in .agent-clis, run node scripts/agent-clis.mjs'})`, () => {
  it('bookmark at session start, the write instruction after a session-end phrase only, the stop blocked once, nothing on stderr about our settings, exact uninstall', async () => {
    const { repo, home, env, before, calls } = project('claude');
    // the approval Claude Code asks for once for a project's .mcp.json servers
    writeFileSync(
      join(home, '.claude.json'),
      JSON.stringify({ projects: { [repo.dir]: { enabledMcpjsonServers: ['git-handoff'], hasTrustDialogAccepted: true } } }),
    );
    const cenv = {
      ...env,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-ant-fake',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    model.reset();
    const a = await run(claudeBin, ['-p', 'hello there, how are things?'], { cwd: repo.dir, env: cenv });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('OK from the fake model.');
    expect(model.modelText()).toContain(BOOKMARK);
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(complaints(a.stderr)).toEqual([]);

    model.reset();
    const b = await run(claudeBin, ['-p', "that's all, wrap up session"], { cwd: repo.dir, env: cenv });
    expect(b.code, b.stderr).toBe(0);
    const sent = model.modelRequests().map((r) => r.body);
    expect(sent[0]).toContain(WRITE_NOW);
    // the model wrote nothing: the stop is blocked once, and its reason reaches the model
    expectBlockedOnce(sent);
    expect(complaints(b.stderr)).toEqual([]);
    // the ordinary turn's prompt and stop were answered in the shell, the session end's prompt by Node
    expect(
      calls()
        .filter((c) => !c.node)
        .map((c) => c.event),
    ).toEqual(expect.arrayContaining(['user-prompt-submit', 'stop']));
    expect(calls().filter((c) => c.node && c.event === 'user-prompt-submit')).toHaveLength(1);
    // Claude Code records the approval of the project's MCP server in its personal settings file
    expectExactUninstall(repo, before, { '.claude/settings.local.json': { enabledMcpjsonServers: ['git-handoff'] } });
  });
});

const geminiBin = bin('gemini');
describe.skipIf(!has(geminiBin))(`Gemini CLI (real CLI${has(geminiBin) ? '' : ': not installed in .agent-clis'})`, () => {
  it('bookmark at session start, the write instruction after a session-end phrase only, the AfterAgent deny once, no PreCompress reminder on an ordinary turn, exact uninstall', async () => {
    // a handoff is due, which made every turn print the PreCompress reminder
    const { repo, home, env, before, calls } = project('gemini', { due: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini/settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
    );
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    const genv = { ...env, GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'fake-key' };
    const args = (p: string) => ['-m', 'gemini-2.5-flash', '-p', p];
    model.reset();
    const a = await run(geminiBin, args('hello there, how are things?'), { cwd: repo.dir, env: genv });
    expect(a.code, a.stderr).toBe(0);
    expect(model.modelText()).toContain(BOOKMARK);
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(a.stdout + a.stderr).not.toContain('before the context is compacted');
    expect(complaints(a.stderr)).toEqual([]);

    model.reset();
    const b = await run(geminiBin, args('on that note, wrap up session'), { cwd: repo.dir, env: genv });
    expect(b.code, b.stderr).toBe(0);
    const sent = model.modelRequests().map((r) => r.body);
    expect(sent[0]).toContain(WRITE_NOW);
    expectBlockedOnce(sent);
    expect(b.stdout + b.stderr).not.toContain('before the context is compacted');
    expect(complaints(b.stderr)).toEqual([]);
    expect(
      calls()
        .filter((c) => !c.node)
        .map((c) => c.event),
    ).toEqual(expect.arrayContaining(['user-prompt-submit', 'stop']));
    expectExactUninstall(repo, before);
  });
});

/** Trusts the project's hooks the way Codex's /hooks screen does: its app-server's hooks/list, then config/batchWrite. */
async function trustCodexHooks(codex: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const child = spawn(codex, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  let buf = '';
  const pending = new Map<number, (m: any) => void>();
  child.stdout.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      if (m.id !== undefined && pending.has(m.id)) {
        pending.get(m.id)!(m);
        pending.delete(m.id);
      }
    }
  });
  let id = 0;
  const call = (method: string, params: unknown) =>
    new Promise<any>((ok, fail) => {
      const n = ++id;
      pending.set(n, ok);
      setTimeout(() => fail(new Error(`codex app-server: no answer to ${method}`)), 30_000);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  try {
    await call('initialize', { clientInfo: { name: 'git-handoff-tests', version: '0' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized', params: {} })}\n`);
    const list = await call('hooks/list', { cwds: [cwd] });
    const hooks: any[] = list.result.data[0].hooks;
    const edits = hooks.map((h) => ({ keyPath: `hooks.state.${JSON.stringify(h.key)}`, value: { trusted_hash: h.currentHash }, mergeStrategy: 'upsert' }));
    const w = await call('config/batchWrite', { edits });
    expect(w.result?.status).toBe('ok');
    return hooks.map((h) => h.command);
  } finally {
    child.kill();
  }
}

const codexBin = bin('codex');
describe.skipIf(!has(codexBin))(`Codex CLI (real CLI${has(codexBin) ? '' : ': not installed in .agent-clis'})`, () => {
  it('no deprecation warning; doctor says untrusted hooks will not run, and once trusted as /hooks does, codex exec runs them: bookmark, write instruction, stop blocked once; exact uninstall', async () => {
    const { repo, home, env, before } = project('codex');
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-fake"',
        'model_provider = "fake"',
        'check_for_update_on_startup = false',
        '',
        '[model_providers.fake]',
        'name = "Fake"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_MODEL_KEY"',
        '',
        '[features]',
        'plugins = false',
        'apps = false',
        '',
        `[projects."${repo.dir}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    const cenv = { ...env, CODEX_HOME: codexHome, FAKE_MODEL_KEY: 'fake' };
    const exec = (prompt: string) => run(codexBin, ['exec', prompt], { cwd: repo.dir, env: cenv });

    // untrusted: codex exec runs none of them, and says nothing; doctor says so
    const d1 = handoff(repo, ['doctor', '--json'], { env: { CODEX_HOME: codexHome } });
    expect(d1.json.findings.find((f: any) => f.kind === 'agent')?.message).toMatch(
      /Codex will not run the git-handoff hooks in \.codex\/hooks\.json \(not trusted yet: SessionStart, UserPromptSubmit, PreCompact, Stop, SessionEnd\)/,
    );
    model.reset();
    const quiet = await exec('hello there');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(model.modelText()).not.toContain(BOOKMARK);

    const trusted = await trustCodexHooks(codexBin, repo.dir, cenv);
    expect(trusted.filter((c) => c.startsWith('git-handoff-hook '))).toHaveLength(5);
    const d2 = handoff(repo, ['doctor', '--json'], { env: { CODEX_HOME: codexHome } });
    expect(d2.json.findings.filter((f: any) => f.kind === 'agent')).toEqual([]);

    model.reset();
    const a = await exec('hello there, how are things?');
    expect(a.code, a.stderr).toBe(0);
    expect(model.modelText()).toContain(BOOKMARK);
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(complaints(a.stderr)).toEqual([]);
    expect(a.stderr).not.toMatch(/deprecated|clamping/);

    model.reset();
    const b = await exec('good, wrap up session');
    expect(b.code, b.stderr).toBe(0);
    const sent = model.modelRequests().map((r) => r.body);
    expect(sent[0]).toContain(WRITE_NOW);
    expectBlockedOnce(sent);
    expect(complaints(b.stderr)).toEqual([]);
    expectExactUninstall(repo, before);
  });
});

const copilotBin = bin('copilot');
describe.skipIf(!has(copilotBin))(`Copilot CLI (real CLI${has(copilotBin) ? '' : ': not installed in .agent-clis'})`, () => {
  const setup = (agents: string) => {
    const p = project(agents);
    mkdirSync(join(p.home, '.copilot'), { recursive: true });
    writeFileSync(join(p.home, '.copilot/config.json'), JSON.stringify({ trusted_folders: [p.repo.dir] }));
    const cache = join(CLI_DIR, '.copilot-cache');
    const env = {
      ...p.env,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
      COPILOT_PROVIDER_API_KEY: 'fake',
      COPILOT_MODEL: 'fake-model',
      COPILOT_CACHE_HOME: cache,
      COPILOT_PKG_CACHE_HOME: cache,
    };
    return { ...p, cenv: env, ask: (prompt: string) => run(copilotBin, ['-p', prompt, '--allow-all-tools'], { cwd: p.repo.dir, env }) };
  };

  it('bookmark at session start, the write instruction after a session-end phrase only, agentStop blocked once, exact uninstall', async () => {
    const { repo, before, ask } = setup('copilot');
    model.reset();
    const a = await ask('hello there, how are things?');
    expect(a.code, a.stderr).toBe(0);
    expect(model.modelText()).toContain(BOOKMARK);
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(complaints(a.stderr)).toEqual([]);

    model.reset();
    const b = await ask('good, wrap up session');
    expect(b.code, b.stderr).toBe(0);
    const sent = model.modelRequests().map((r) => r.body);
    expect(sent[0]).toContain(WRITE_NOW);
    expectBlockedOnce(sent);
    expect(complaints(b.stderr)).toEqual([]);
    expectExactUninstall(repo, before);
  });

  it("one hook, one host: with Claude Code's hooks installed too, Copilot's session gets the bookmark once", async () => {
    const { repo, before, ask } = setup('claude,copilot');
    model.reset();
    const a = await ask('hello there');
    expect(a.code, a.stderr).toBe(0);
    const first = model.modelRequests()[0].body;
    expect(first.split(BOOKMARK).length - 1).toBe(1);
    expectExactUninstall(repo, before);
  });

  it("Copilot runs Claude Code's hooks: with only those installed, the bookmark still reaches its model (answered in Copilot's format)", async () => {
    const { repo, before, ask } = setup('claude');
    model.reset();
    const a = await ask('hello there');
    expect(a.code, a.stderr).toBe(0);
    expect(model.modelRequests()[0].body.split(BOOKMARK).length - 1).toBe(1);
    expect(complaints(a.stderr)).toEqual([]);
    expectExactUninstall(repo, before);
  });
});

/** One Droid session through `droid exec --input-format stream-jsonrpc` (plain text mode runs no UserPromptSubmit hooks). */
async function droidSession(droid: string, cwd: string, env: NodeJS.ProcessEnv, prompts: string[]): Promise<Run> {
  const child = spawn(droid, ['exec', '--input-format', 'stream-jsonrpc', '-o', 'stream-jsonrpc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = '';
  let stdout = '';
  let stderr = '';
  const pending = new Map<string, (m: any) => void>();
  const waiters: Array<(n: any) => void> = [];
  child.stderr.on('data', (b) => (stderr += b));
  child.stdout.on('data', (d) => {
    stdout += d;
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      let m: any;
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      if (m.type === 'response' && pending.has(m.id)) {
        pending.get(m.id)!(m);
        pending.delete(m.id);
      } else if (m.type === 'notification') for (const w of waiters.splice(0)) w(m.params?.notification);
    }
  });
  const closed = new Promise<number | null>((ok) => child.on('close', ok));
  let id = 0;
  const limit = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, new Promise<T>((_, fail) => setTimeout(() => fail(new Error(`droid: no ${what} within 60 s`)), 60_000))]);
  const call = (method: string, params: unknown) =>
    limit(
      new Promise<any>((ok) => {
        const n = String(++id);
        pending.set(n, ok);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', factoryApiVersion: '1.0.0', type: 'request', id: n, method, params })}\n`);
      }),
      `answer to ${method}`,
    );
  const idle = () =>
    limit(
      new Promise<void>((ok) => {
        const f = (n: any) => (n?.type === 'droid_working_state_changed' && n.newState === 'idle' ? ok() : waiters.push(f));
        waiters.push(f);
      }),
      'idle state',
    );
  try {
    const init = await call('droid.initialize_session', { machineId: 'git-handoff-tests', cwd, modelId: 'custom:fake-0' });
    expect(init.error).toBeUndefined();
    for (const text of prompts) {
      const done = idle();
      const r = await call('droid.add_user_message', { sessionId: init.result.sessionId, text });
      expect(r.error).toBeUndefined();
      await done;
    }
  } finally {
    child.stdin.end();
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  }
  return { code: await closed, stdout, stderr };
}

const droidBin = join(CLI_DIR, 'node_modules/@factory/cli-linux-x64/bin/droid');
describe.skipIf(!has(droidBin))(`Factory Droid (real CLI${has(droidBin) ? '' : ': not installed in .agent-clis'})`, () => {
  it('bookmark at session start, the write instruction after a session-end phrase only, the stop blocked once, nothing on stderr about our settings, exact uninstall', async () => {
    const { repo, home, env, before } = project('droid');
    mkdirSync(join(home, '.factory'), { recursive: true });
    writeFileSync(
      join(home, '.factory/settings.json'),
      JSON.stringify({
        customModels: [
          {
            model: 'fake-model',
            displayName: 'fake',
            baseUrl: `${model.url}/v1`,
            apiKey: 'fake',
            provider: 'generic-chat-completion-api',
            maxOutputTokens: 1000,
          },
        ],
      }),
    );
    const denv = { ...env, FACTORY_AIRGAP_ENABLED: '1' };
    model.reset();
    const a = await droidSession(droidBin, repo.dir, denv, ['hello there, how are things?']);
    expect(model.modelText()).toContain(BOOKMARK);
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(complaints(a.stderr)).toEqual([]);

    model.reset();
    const b = await droidSession(droidBin, repo.dir, denv, ['good, wrap up session']);
    // (Droid also asks the model for a session title, with the prompt alone)
    const sent = model
      .modelRequests()
      .map((r) => r.body)
      .filter((t) => !t.includes('concise session titles'));
    expect(sent[0]).toContain(WRITE_NOW);
    expectBlockedOnce(sent);
    expect(complaints(b.stderr)).toEqual([]);
    expectExactUninstall(repo, before);
  });
});

const opencodeBin = bin('opencode');
describe.skipIf(!has(opencodeBin))(`OpenCode (real CLI${has(opencodeBin) ? '' : ': not installed in .agent-clis'})`, () => {
  it('our plugin loads: bookmark at session start, the write instruction after a session-end phrase only, nothing on stderr about our settings, exact uninstall', async () => {
    const { repo, home, env, before } = project('opencode');
    const config = join(home, '.config/opencode');
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: {
          fake: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Fake',
            options: { baseURL: `${model.url}/v1`, apiKey: 'fake' },
            models: { 'fake-model': { name: 'Fake' } },
          },
        },
        model: 'fake/fake-model',
        autoupdate: false,
        share: 'disabled',
      }),
    );
    // OpenCode installs @opencode-ai/plugin into every .opencode/ folder it sees: npm stays offline
    const oenv = {
      ...env,
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      npm_config_offline: 'true',
      GIT_HANDOFF_PLUGIN_LOG: join(home, 'plugin.log'),
    };
    const ask = (prompt: string) => run(opencodeBin, ['run', '-m', 'fake/fake-model', prompt], { cwd: repo.dir, env: oenv });
    model.reset();
    const a = await ask('hello there, how are things?');
    expect(a.code, a.stderr).toBe(0);
    // a plugin that fails to load is skipped without a word: the bookmark in the request is the proof it loaded
    expect(model.modelText(), existsSync(join(home, 'plugin.log')) ? readFileSync(join(home, 'plugin.log'), 'utf8') : 'the plugin logged nothing').toContain(
      BOOKMARK,
    );
    expect(model.modelText()).toContain(MCP_TOOL);
    expect(model.modelText()).not.toContain(WRITE_NOW);
    expect(complaints(a.stderr)).toEqual([]);

    model.reset();
    const b = await ask('good, wrap up session');
    expect(b.code, b.stderr).toBe(0);
    expect(model.modelText()).toContain(WRITE_NOW);
    expect(complaints(b.stderr)).toEqual([]);
    // OpenCode writes its own .opencode/.gitignore into any .opencode/ folder it sees, and
    // adds "$schema" to the opencode.json it reads (where our MCP entry was)
    expect(readFileSync(join(repo.dir, '.opencode/.gitignore'), 'utf8')).toContain('node_modules');
    expectExactUninstall(repo, before, {
      '.opencode/.gitignore': readFileSync(join(repo.dir, '.opencode/.gitignore'), 'utf8'),
      'opencode.json': { $schema: 'https://opencode.ai/config.json' },
    });
  });
});
