/**
 * The built CLI's everyday commands under every Node we claim: the floor `engines` names
 * and the newest builds of Node 22, 24 and 26 (exact builds from the npm registry,
 * installed into .node-versions/ by scripts/node-versions.mjs, which `.ci/run` runs), and
 * a Node below the floor, which is refused in one line before anything is read.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff, type CliResult } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const listed = spawnSync(process.execPath, [join(root, 'scripts/node-versions.mjs'), '--print'], { encoding: 'utf8' });
/** version -> the folder holding its `node`, or null when it is not installed */
const nodes = new Map<string, string | null>(
  listed.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [version, bin] = line.split(' ');
      return [version, bin === 'missing' ? null : bin];
    }),
);
const [floor, ...newer] = [...nodes.keys()].filter((v) => !v.startsWith('below:'));
const below = [...nodes.keys()].find((v) => v.startsWith('below:'));

describe('the Node floor', () => {
  it('engines names the oldest Node the everyday commands run on here, and the lines users arrive with are run too', () => {
    expect(listed.status, listed.stderr).toBe(0);
    expect(pkg.engines.node).toBe(`>=${floor}`);
    expect(newer.map((v) => v.split('.')[0])).toEqual(['22', '24', '26']);
  });
});

/** Everything a command said, for the assertion message. */
const said = (r: CliResult) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`;

function everyday(version: string, bin: string) {
  const env = { PATH: `${bin}:${cliPath()}` };
  const run = (repo: TestRepo, args: string[], input?: string) => {
    const r = handoff(repo, args, { env, input });
    expect(r.stderr, said(r)).not.toMatch(/corrupt|internal error|is not a function|needs Node/i);
    return r;
  };

  it(`runs init, a hooked commit, write, show, log, diff, search, sync to a bare remote, doctor and an MCP initialize`, () => {
    const v = spawnSync('node', ['--version'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(v.stdout.trim()).toBe(`v${version}`);

    const remote = TestRepo.init({ bare: true });
    const repo = TestRepo.init();
    repo.commit('feat: start the parser', { 'a.txt': '1\n' });
    repo.git('remote', 'add', 'origin', remote.dir);
    expect(run(repo, ['init', '--sync']).code).toBe(0);

    // a commit with the hooks live (git starts them, they start this Node)
    const hooked = repo.gitRaw(['commit', '-q', '--allow-empty', '-m', 'feat: the lexer'], { env });
    expect(hooked.status, hooked.stderr).toBe(0);
    expect(hooked.stderr).not.toMatch(/corrupt|internal error|is not a function/i);

    const w1 = run(repo, ['write', '--json'], 'summary: lexer started\ncursor:\n  next_step: the parser tables\n');
    expect(w1.code, said(w1)).toBe(0);
    const w2 = run(repo, ['write', '--summary', 'lexer done, parser next', '--json']);
    expect(w2.code, said(w2)).toBe(0);

    const show = run(repo, ['show', '--json']);
    expect(show.code, said(show)).toBe(0);
    expect(show.json.handoff.summary).toBe('lexer done, parser next');
    expect(run(repo, ['show']).stdout).toContain('lexer done, parser next');

    const log = run(repo, ['log', '--json']);
    expect(log.code, said(log)).toBe(0);
    expect(JSON.stringify(log.json)).toContain(w1.json.version);

    const diff = run(repo, ['diff']);
    expect(diff.code, said(diff)).toBe(0);
    expect(diff.stdout).toContain('lexer done, parser next');

    const search = run(repo, ['search', 'lexer', '--json']);
    expect(search.code, said(search)).toBe(0);
    expect(JSON.stringify(search.json)).toContain(w2.json.version);

    const sync = run(repo, ['sync', '--json']);
    expect(sync.code, said(sync)).toBe(0);
    expect(remote.git('rev-parse', 'refs/notes/handoff').trim()).toBe(repo.notesRef());

    const doctor = run(repo, ['doctor', '--json']);
    expect(doctor.code, said(doctor)).toBe(0);

    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'node-versions', version: '1' } },
    };
    const mcp = spawnSync('git', ['handoff', 'mcp'], {
      cwd: repo.dir,
      env: { ...repo.tick(), ...env },
      input: `${JSON.stringify(initialize)}\n`,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(mcp.status, mcp.stderr).toBe(0);
    const reply = JSON.parse(mcp.stdout.trim().split('\n')[0]);
    expect(reply).toMatchObject({ id: 1, result: { serverInfo: { name: 'git-handoff' } } });

    repo.fsck();
  });
}

for (const version of [floor, ...newer]) {
  const bin = nodes.get(version) ?? null;
  describe.skipIf(!bin)(`Node ${version}${bin ? '' : ' (not installed: node scripts/node-versions.mjs)'}`, () => {
    everyday(version, bin!);
  });
}

const belowBin = below ? nodes.get(below) : null;
describe.skipIf(!belowBin)(`a Node below the floor${belowBin ? '' : ' (not installed: node scripts/node-versions.mjs)'}`, () => {
  it('is refused in one line naming the Node needed and the one found, before any repository is read', () => {
    const version = below!.slice('below:'.length);
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': '1\n' });
    const env = { PATH: `${belowBin}:${cliPath()}` };
    for (const args of [['write', '--summary', 'x'], ['show'], ['log']]) {
      const r = handoff(repo, args, { env });
      expect(r.code, said(r)).toBe(1);
      expect(r.stderr).toBe(`git handoff: needs Node.js ${floor} or newer; this is v${version} (${belowBin}/node)\n`);
    }
    const json = handoff(repo, ['show', '--json'], { env });
    expect(json.json).toEqual({
      ok: false,
      error: { code: 'UnsupportedNode', message: `needs Node.js ${floor} or newer; this is v${version} (${belowBin}/node)` },
    });
    expect(repo.notesRef()).toBeNull();
  });
});
