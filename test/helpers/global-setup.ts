/**
 * Packs the package and installs the tarball into a temporary prefix once per test run,
 * so end-to-end tests run `git handoff` exactly as a user who installed it would.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

const root = resolve(import.meta.dirname, '../..');

export default function setup(project: TestProject) {
  const work = mkdtempSync(join(tmpdir(), 'handoff-pack-'));
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack produced no tarball');
  const prefix = join(work, 'prefix');
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', join(work, tgz)], {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  project.provide('binDir', join(prefix, 'bin'));
  project.provide('packageRoot', root);
  return () => rmSync(work, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    binDir: string;
    packageRoot: string;
  }
}
