#!/usr/bin/env node
// Installs the agent CLIs the slow suite runs for real (test/slow/agent-clis.test.ts) into
// .agent-clis/ at the repository root (git-ignored; not devDependencies: they are big and
// only that suite uses them). Pinned versions, one `npm install`, bounded in time; a CLI
// that cannot be installed makes its test skip with the reason. Usage:
//   node scripts/agent-clis.mjs            install when missing or at another version
//   node scripts/agent-clis.mjs --print    print the folder and exit
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_DIR = join(root, '.agent-clis');

// The Factory wrapper on the registry lags its binary package: the platform package is
// installed directly.
const PACKAGES = {
  '@anthropic-ai/claude-code': '2.1.332',
  '@openai/codex': '0.171.0',
  '@google/gemini-cli': '0.61.0',
  '@github/copilot': '1.0.102',
  'opencode-ai': '1.18.33',
  '@factory/cli-linux-x64': '0.225.2',
};

if (process.argv.includes('--print')) {
  console.log(CLI_DIR);
  process.exit(0);
}
const manifest = `${JSON.stringify({ name: 'git-handoff-agent-clis', private: true, dependencies: PACKAGES }, null, 2)}\n`;
const pkgFile = join(CLI_DIR, 'package.json');
const current = existsSync(pkgFile) ? readFileSync(pkgFile, 'utf8') : null;
const installed = Object.keys(PACKAGES).every((p) => existsSync(join(CLI_DIR, 'node_modules', p, 'package.json')));
if (current === manifest && installed) {
  console.log(`agent CLIs: up to date in ${CLI_DIR}`);
  process.exit(0);
}
mkdirSync(CLI_DIR, { recursive: true });
writeFileSync(pkgFile, manifest);
const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: CLI_DIR, stdio: 'inherit', timeout: 900_000 });
if (r.status !== 0) {
  console.error(`agent CLIs: npm install failed (${r.error ? r.error.message : `exit ${r.status}`}); the real-CLI tests that need them skip`);
  process.exit(0);
}
console.log(`agent CLIs: installed in ${CLI_DIR}`);
