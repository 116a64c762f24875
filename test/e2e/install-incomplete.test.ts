/**
 * A broken installation (the bundles without the package around them: no githooks/, no
 * package.json) is our package's failure, not the user's: `init` says so in the one line
 * an internal error gets, exit 3, and its JSON code names what is missing.
 */
import { cpSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';

describe('an installation without its package folder', () => {
  it('init reports one internal-error line, exit 3, code InstallationIncomplete', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    const lonely = join(tempDir('handoff-no-package-'), 'dist');
    cpSync(join(inject('packageRoot'), 'dist'), lonely, { recursive: true });
    const run = (args: string[]) => spawnSync(process.execPath, [join(lonely, 'cli.cjs'), ...args], { cwd: repo.dir, env: repo.tick(), encoding: 'utf8' });

    const text = run(['init']);
    expect(text.status).toBe(3);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe('git handoff: internal error: cannot find the git-handoff package folder (githooks/ is missing)\n');

    const json = run(['init', '--json']);
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: false,
      error: { code: 'InstallationIncomplete', message: 'internal error: cannot find the git-handoff package folder (githooks/ is missing)' },
    });
  });
});
