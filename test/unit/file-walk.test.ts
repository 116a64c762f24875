import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';
import { entriesUnder } from '../../src/state/file-walk.js';

const root = mkdtempSync(join(tmpdir(), 'handoff-walk-'));
afterAll(() => {
  chmodSync(join(root, 'shut'), 0o755);
  rmSync(root, { recursive: true, force: true });
});

// The ref-lock scan and the legacy-receipt scan each walked folders their own way.
describe('the one folder walk', () => {
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  writeFileSync(join(root, 'top'), '');
  writeFileSync(join(root, 'a', 'one'), '');
  writeFileSync(join(root, 'a', 'b', 'two'), '');
  writeFileSync(join(root, 'a', 'b', 'c', 'three'), '');
  symlinkSync('top', join(root, 'link'));
  mkdirSync(join(root, 'shut'));
  writeFileSync(join(root, 'shut', 'hidden'), '');
  chmodSync(join(root, 'shut'), 0);
  const names = (maxDepth?: number) => [...entriesUnder(root, maxDepth)].map((e) => relative(root, e.path)).sort();

  /**
   * The walk as a user who may not read `shut/`: root may read any folder, so as root the
   * walk runs in a child process started as nobody (the module bundled for it by esbuild).
   */
  function namesAsUser(): string[] {
    if (process.getuid?.() !== 0) return names();
    const dir = mkdtempSync(join(tmpdir(), 'handoff-walk-code-'));
    chmodSync(dir, 0o755);
    chmodSync(root, 0o755);
    const bundle = join(dir, 'walk.mjs');
    buildSync({
      entryPoints: [join(import.meta.dirname, '../../src/state/file-walk.ts')],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: bundle,
      logLevel: 'silent',
    });
    const code = `import { entriesUnder } from ${JSON.stringify(bundle)}; console.log(JSON.stringify([...entriesUnder(${JSON.stringify(root)})].map((e) => e.path)));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { uid: 65534, gid: 65534, encoding: 'utf8', cwd: dir });
    rmSync(dir, { recursive: true, force: true });
    if (r.status !== 0) throw new Error(`the walk as nobody failed: ${r.stderr}`);
    return (JSON.parse(r.stdout) as string[]).map((p) => relative(root, p)).sort();
  }

  it('yields every entry that is not a folder, symbolic links included', () => {
    const all = names();
    expect(all).toEqual(expect.arrayContaining(['a/b/c/three', 'a/b/two', 'a/one', 'link', 'top']));
    expect(all.filter((n) => !n.startsWith('shut/'))).toEqual(['a/b/c/three', 'a/b/two', 'a/one', 'link', 'top']);
  });

  it('passes over a folder it may not read', () => {
    expect(namesAsUser()).toEqual(['a/b/c/three', 'a/b/two', 'a/one', 'link', 'top']);
  });

  it('enters folders no deeper than asked', () => {
    expect(names(0).filter((n) => !n.startsWith('shut/'))).toEqual(['link', 'top']);
    expect(names(1).filter((n) => !n.startsWith('shut/'))).toEqual(['a/one', 'link', 'top']);
  });

  it('yields nothing under a folder that does not exist', () => {
    expect([...entriesUnder(join(root, 'none'))]).toEqual([]);
  });
});
