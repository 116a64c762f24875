// Bundles src/bin.ts into dist/cli.js (ESM, code-split so heavy modules load only on the
// paths that use them) and renders the man page from the same specs as `-h`.
import { build } from 'esbuild';
import { rmSync, mkdirSync, writeFileSync, chmodSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
rmSync(join(root, 'dist'), { recursive: true, force: true });

await build({
  entryPoints: { cli: join(root, 'src/bin.ts') },
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: '#!/usr/bin/env node' },
  chunkNames: 'chunks/[name]-[hash]',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync(join(root, 'dist/cli.js'), 0o755);

mkdirSync(join(root, 'man'), { recursive: true });
const man = execFileSync(process.execPath, [join(root, 'dist/cli.js'), '--man-page'], { encoding: 'utf8' });
writeFileSync(join(root, 'man/git-handoff.1'), man);
