/**
 * Real agent programs as MCP clients: after `git handoff init --agent NAME`,
 * the CLI (installed into .agent-clis/ by scripts/agent-clis.mjs) runs offline against a
 * fake model server on 127.0.0.1, starts `git handoff mcp` from the entry init registered,
 * lists our tools and offers them to the model: the model request carries their names. A
 * CLI that is not installed skips, named.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { startFakeModel, type FakeModel } from '../helpers/fake-model.js';

const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, '.agent-clis/node_modules/.bin', name);
const TOOLS = ['handoff_show', 'handoff_write', 'handoff_search'];

let model: FakeModel;
beforeAll(async () => {
  model = await startFakeModel();
});
afterAll(async () => {
  await model?.close();
});

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    child.stdin.end('');
  });
}

function project(agent: string, extra: string[] = []) {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'README.md': '# scratch\n' });
  expect(handoff(repo, ['write', '--summary', 'parser half done']).code).toBe(0);
  const init = handoff(repo, ['init', '--agent', agent, ...extra]);
  expect(init.code, init.stderr).toBe(0);
  const home = tempDir('handoff-mcp-home-');
  const env: NodeJS.ProcessEnv = {
    ...repo.tick(),
    PATH: cliPath(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    TERM: 'dumb',
    CI: '1',
  };
  return { repo, home, env };
}

const claude = bin('claude');
describe.skipIf(!existsSync(claude))(
  `Claude Code lists our MCP tools (real CLI${existsSync(claude) ? '' : ': not installed in .agent-clis, run node scripts/agent-clis.mjs'})`,
  () => {
    it('starts git handoff mcp from .mcp.json and offers its tools to the model', async () => {
      const { repo, home, env } = project('claude');
      // the one-time approval of a project's .mcp.json servers, given in the user's settings
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(join(home, '.claude/settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
      model.reset();
      const r = await run(claude, ['-p', 'hello there'], repo.dir, {
        ...env,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-ant-fake',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      });
      expect(r.code, r.stderr).toBe(0);
      const sent = model
        .modelRequests()
        .map((q) => q.body)
        .join('\n');
      for (const t of TOOLS) expect(sent, t).toContain(`mcp__git-handoff__${t}`);
    });
  },
);

const gemini = bin('gemini');
describe.skipIf(!existsSync(gemini))(`Gemini CLI lists our MCP tools (real CLI${existsSync(gemini) ? '' : ': not installed in .agent-clis'})`, () => {
  it('starts git handoff mcp from .gemini/settings.json and offers its tools to the model', async () => {
    const { repo, home, env } = project('gemini');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini/settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }),
    );
    writeFileSync(join(home, '.gemini/trustedFolders.json'), JSON.stringify({ [repo.dir]: 'TRUST_FOLDER' }));
    model.reset();
    const r = await run(gemini, ['-m', 'gemini-2.5-flash', '-p', 'hello there'], repo.dir, {
      ...env,
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_API_KEY: 'fake-key',
    });
    expect(r.code, r.stderr).toBe(0);
    const sent = model
      .modelRequests()
      .map((q) => q.body)
      .join('\n');
    for (const t of TOOLS) expect(sent, t).toContain(t);
  });
});

const codex = bin('codex');
describe.skipIf(!existsSync(codex))(`Codex CLI lists our MCP tools (real CLI${existsSync(codex) ? '' : ': not installed in .agent-clis'})`, () => {
  it.each([[[]], [['--no-mcp']]])(
    'starts git handoff mcp from [mcp_servers.git-handoff] in .codex/config.toml (a trusted project) and offers its tools to the model (init %j)',
    async (extra: string[]) => {
      const { repo, home, env } = project('codex', extra);
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
      model.reset();
      const r = await run(codex, ['exec', 'hello there'], repo.dir, { ...env, CODEX_HOME: codexHome, FAKE_MODEL_KEY: 'fake' });
      expect(r.code, r.stderr).toBe(0);
      const sent = model
        .modelRequests()
        .map((q) => q.body)
        .join('\n');
      expect(sent.length).toBeGreaterThan(0);
      // without the registration (the control) the tools are not there: the names come from our server
      for (const t of TOOLS) {
        if (extra.length) expect(sent, t).not.toContain(t);
        else expect(sent, t).toContain(t);
      }
    },
  );
});
