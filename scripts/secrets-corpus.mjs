// `node scripts/secrets-corpus.mjs [--json]`: builds the scanner's measurement corpus
// (test/helpers/secret-corpus.ts: provider-format values in handoff contexts, generic
// credentials in every common syntax, ordinary engineering prose) and prints recall and
// false alarms. Also scans this repository's README and docs/ lines as real prose.
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'handoff-corpus-'));
const out = join(dir, 'corpus.mjs');
try {
  await build({
    stdin: {
      contents: `export { scoreCorpus, HAND_WRITTEN_COUNT } from ${JSON.stringify(join(root, 'test/helpers/secret-corpus.ts'))};\nexport { scanText } from ${JSON.stringify(join(root, 'src/core/secrets.ts'))};`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'warning',
  });
  const { scoreCorpus, scanText, HAND_WRITTEN_COUNT } = await import(pathToFileURL(out).href);
  const s = scoreCorpus(scanText);
  // The README and every docs/ page, as real prose.
  const pages = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const readme = pages.flatMap((p) =>
    readFileSync(join(root, p), 'utf8')
      .split('\n')
      .filter((l) => l.trim()),
  );
  const readmeAlarms = readme.flatMap((line) => scanText(line).map((h) => ({ line, kind: h.kind })));
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ ...s, missed: s.missed.map((m) => m.rule), readmeLines: readme.length, readmeAlarms }, null, 2));
  } else {
    console.log(
      `positives: caught ${s.caught} of ${s.positives} (${pct(s.caught, s.positives)}) over ${s.families} families; families missed entirely: ${s.missedFamilies.length ? s.missedFamilies.join(', ') : 'none'}`,
    );
    for (const m of s.missed) console.log(`  missed ${m.rule}: ${m.text.slice(0, 60)}...`);
    console.log(`prose: ${s.falseAlarms.length} false alarm(s) on ${s.proseLines} lines (${HAND_WRITTEN_COUNT} written by hand, the rest templated)`);
    for (const a of s.falseAlarms) console.log(`  ${a.kind}: ${a.line}`);
    console.log(`README.md and docs/: ${readmeAlarms.length} hit(s) on ${readme.length} non-empty lines`);
    for (const a of readmeAlarms) console.log(`  ${a.kind}: ${a.line.slice(0, 100)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
