/**
 * The import-boundary rules (.dependency-cruiser.cjs) and the ESLint rules that see what an
 * import graph cannot (eslint.config.js) fail on deliberately wrong code, and pass on a tree
 * that keeps the layering (docs/architecture.md, "Rules a machine checks").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ESLint } from 'eslint';

const root = resolve(import.meta.dirname, '../..');

/** A tiny tree with one wrong import per rule, and files that break none. */
const FIXTURE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  'src/errors.ts': "import type { Io } from './cli/io.js';\nexport class Refused extends Error {}\nexport type { Io };\n",
  'src/cli/io.ts': 'export interface Io {\n  out(s: string): void;\n}\n',
  'src/app/out.ts': "import type { Io } from '../cli/io.js';\nexport const say = (io: Io) => io.out('x');\n",
  'src/cli.ts': "import { COMMANDS } from './commands/registry.js';\nimport { show } from './commands/show.js';\nexport { COMMANDS, show };\n",
  'src/commands/registry.ts': "export const COMMANDS = { show: () => import('./show.js') };\n",
  'src/commands/show.ts':
    "import { showUseCase } from '../app/show.js';\nimport { readRef } from '../git/refs.js';\nexport const show = () => showUseCase(readRef());\n",
  'src/commands/log.ts':
    "import type { Decision } from '../core/decide.js';\nimport { decide } from '../core/decide.js';\nimport { render } from '../core/bookmark.js';\nexport const log = (d: Decision) => render(decide(d));\n",
  'src/core/bookmark.ts': 'export const render = (x: unknown) => String(x);\n',
  'src/app/show.ts':
    "import { decide } from '../core/decide.js';\nimport { spawn } from 'node:child_process';\nexport const showUseCase = (x: string) => (spawn, decide(x));\n",
  'src/app/peek.ts': "import { show } from '../commands/show.js';\nexport const peek = show;\n",
  'src/core/decide.ts':
    "import { Refused } from '../errors.js';\nimport { createHash } from 'node:crypto';\nexport type Decision = string;\nexport const decide = (x: string) => (x ? createHash('sha1').update(x).digest('hex') : new Refused());\n",
  'src/core/impure.ts':
    "import { readFileSync } from 'node:fs';\nimport { readRef } from '../git/refs.js';\nexport const impure = () => readFileSync(readRef());\n",
  'src/git/refs.ts': "import { spawnSync } from 'node:child_process';\nexport const readRef = () => String(spawnSync('git', ['rev-parse', 'HEAD']).stdout);\n",
  'src/git/lower.ts': "import { showUseCase } from '../app/show.js';\nexport const lower = showUseCase;\n",
  'src/git/asks-history.ts': "import { latest } from '../history/reader.js';\nexport const asks = latest;\n",
  'src/history/reader.ts': "import { readRef } from '../git/refs.js';\nexport const latest = readRef;\n",
  'src/history/provenance.ts': "import { readRef } from '../git/refs.js';\nexport const whose = readRef;\n",
  'src/app/own-provenance.ts': "import { whose } from '../history/provenance.js';\nexport const mine = whose;\n",
  'src/process/run.ts': "import { spawn } from 'node:child_process';\nexport const run = (cmd: string, args: string[]) => spawn(cmd, args);\n",
  'src/providers/gh.ts': "import { run } from '../process/run.js';\nexport const gh = () => run('gh', ['api']);\n",
  'src/state/lock.ts': "import type { readRef } from '../git/refs.js';\nexport type Reader = typeof readRef;\n",
  'src/app/ring-a.ts': "import type { B } from './ring-b.js';\nexport type A = { b?: B };\n",
  'src/app/ring-b.ts': "import type { A } from './ring-a.js';\nexport type B = { a?: A };\n",
  'src/app/lonely.ts': 'export const lonely = 1;\n',
  'src/view-client/main.ts':
    "import { readRef } from '../git/refs.js';\nimport { readFileSync } from 'node:fs';\nexport const page = () => readFileSync(readRef());\n",
  'src/app/serve-page.ts': "import { page } from '../view-client/main.js';\nexport const serve = page;\n",
};

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'handoff-boundaries-'));
  for (const [path, text] of Object.entries(FIXTURE)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dependency-cruiser boundaries', () => {
  it('fails, naming each wrong import and only those', () => {
    // the reporter `npm run lint` uses: one line per violation, the exit code is their count
    const r = spawnSync(
      process.execPath,
      [join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', '--config', join(root, '.dependency-cruiser.cjs')],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    // a cycle is printed over several lines (each module, then an arrow), an orphan alone
    const violations = [...r.stdout.matchAll(/^\s*error (\S+): (\S+)(?: →((?:\s+\S+ →)*\s+\S+))?$/gm)]
      .map((m) => `${m[1]}: ${[m[2], ...(m[3] ?? '').split('→').map((x) => x.trim())].filter(Boolean).join(' -> ')}`)
      .sort();
    expect(violations, r.stdout + r.stderr).toEqual(
      [
        'commands-go-through-app: src/commands/show.ts -> src/git/refs.ts',
        'commands-use-core-only-to-render: src/commands/log.ts -> src/core/decide.ts',
        'core-has-no-io: src/core/impure.ts -> fs',
        'core-is-pure: src/core/impure.ts -> src/git/refs.ts',
        'entry-uses-only-the-registry: src/cli.ts -> src/commands/show.ts',
        'errors-is-a-leaf: src/errors.ts -> src/cli/io.ts',
        'history-is-above-git: src/git/asks-history.ts -> src/history/reader.ts',
        'provenance-through-the-reader: src/app/own-provenance.ts -> src/history/provenance.ts',
        'no-circular-layers: src/git/lower.ts -> src/app/show.ts',
        'no-circular: src/app/ring-a.ts -> src/app/ring-b.ts -> src/app/ring-a.ts',
        'no-orphans: src/app/lonely.ts',
        'nothing-imports-commands: src/app/peek.ts -> src/commands/show.ts',
        'only-the-runner-starts-programs: src/app/show.ts -> child_process',
        'only-the-shell-imports-cli: src/app/out.ts -> src/cli/io.ts',
        'state-is-below-git: src/state/lock.ts -> src/git/refs.ts',
        'nothing-imports-the-view-client: src/app/serve-page.ts -> src/view-client/main.ts',
        'the-view-client-has-no-node: src/view-client/main.ts -> fs',
        'the-view-client-is-a-page: src/view-client/main.ts -> src/git/refs.ts',
      ].sort(),
    );
    expect(r.status).toBe(violations.length);
  });
});

describe('ESLint rules the import graph cannot see', () => {
  const eslint = new ESLint({ cwd: root });
  const lint = async (path: string, text: string) => (await eslint.lintText(text, { filePath: join(root, path) }))[0].messages.map((m) => m.ruleId);

  it("refuses process.getBuiltinModule('node:child_process') outside the runner and git/", async () => {
    const text = "export const s = () => process.getBuiltinModule('node:child_process').spawn('tmux', []);\n";
    expect(await lint('src/app/boundary-fixture.ts', text)).toEqual(['no-restricted-syntax']);
    expect(await lint('src/process/run.ts', text)).toEqual([]);
    expect(await lint('src/git/boundary-fixture.ts', text)).toEqual([]);
  });

  it('refuses starting git through the runner outside git/', async () => {
    const text = "import { run } from '../process/run.js';\nexport const head = () => run('git', ['rev-parse', 'HEAD']);\n";
    expect(await lint('src/app/boundary-fixture.ts', text)).toEqual(['no-restricted-syntax']);
    expect(await lint('src/git/boundary-fixture.ts', text)).toEqual([]);
    expect(await lint('src/app/boundary-fixture.ts', text.replace("'git'", "'tmux'"))).toEqual([]);
  });

  it('refuses a source file over 400 lines, but not a data table', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join('\n') + '\n';
    expect(await lint('src/app/boundary-fixture.ts', lines(401))).toEqual(['max-lines']);
    expect(await lint('src/app/boundary-fixture.ts', lines(400))).toEqual([]);
    expect(await lint('src/core/secret-rules.ts', lines(401))).toEqual([]);
  });

  it('keeps process out of core/', async () => {
    expect(await lint('src/core/boundary-fixture.ts', 'export const home = () => process.env.HOME;\n')).toEqual(['no-restricted-globals']);
  });
});
