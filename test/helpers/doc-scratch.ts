/** The scratch repository the README's and docs/ pages' shell blocks run in (test/e2e/docs.test.ts, test/slow/docs-blocks.test.ts). */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { cliPath } from './cli.js';
import { readBlocks, type DocBlock } from './doc-blocks.js';
import { isolatedEnv, tempDir } from './repo.js';

/** The file blocks of docs/commands.md (its handoff.yaml): every page's scratch repository has them. */
const sharedFiles = (root: string) => readBlocks(root, 'docs/commands.md').filter((b) => b.file);

/**
 * The repository a page's blocks run in, as a reader's project would be: one commit
 * ('feat: a first parser'), `origin` a bare repository it pushed main to, the handoff.yaml
 * of docs/commands.md in the work tree and one handoff written from it. HOME is a folder
 * of its own, so nothing reaches the user's files.
 */
export function docScratch(root: string, files: DocBlock[]) {
  const base = tempDir('handoff-docs-');
  const dir = join(base, 'project');
  mkdirSync(join(base, 'home'));
  mkdirSync(dir);
  const env = isolatedEnv({ PATH: cliPath(), HOME: join(base, 'home') });
  const sh = (script: string, input = '') => spawnSync('sh', ['-ec', script], { cwd: dir, env, input, encoding: 'utf8', timeout: 60_000 });
  const setup = sh(
    [
      'git init -q --initial-branch=main',
      'git init -q --bare ../origin.git',
      'git remote add origin ../origin.git',
      `printf '%s\\n' 'export const parse = (s) => s.split(",");' > parser.js`,
      'git add parser.js',
      "git commit -q -m 'feat: a first parser'",
      'git push -q -u origin main',
    ].join('\n'),
  );
  expect(setup.status, setup.stderr).toBe(0);
  for (const f of [...sharedFiles(root), ...files]) {
    mkdirSync(dirname(join(dir, f.file!)), { recursive: true });
    writeFileSync(join(dir, f.file!), f.text);
  }
  const first = sh('git handoff write < handoff.yaml');
  expect(first.status, first.stderr).toBe(0);
  return { dir, env, sh };
}
