#!/usr/bin/env node
/**
 * Reads the saved output of a passing `npm test` (.ci/run saves it) and fails when it holds
 * what a green run must not print (issue 25): a line starting with `error:` or `fatal:`
 * (git or a tool speaking through a test that did not capture it) or an escape sequence
 * (colour written to something that is not a terminal). Names each offending line.
 */
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/check-test-output.mjs <saved npm test output>');
  process.exit(2);
}
const lines = readFileSync(file, 'utf8').split('\n');
const bad = [];
lines.forEach((line, i) => {
  if (/^(error|fatal):/.test(line)) bad.push(`${file}:${i + 1}: looks like an error: ${line}`);
  else if (/\u001b/.test(line)) bad.push(`${file}:${i + 1}: an escape sequence: ${JSON.stringify(line.slice(0, 120))}`);
});
for (const b of bad.slice(0, 20)) console.error(b);
if (bad.length > 20) console.error(`… and ${bad.length - 20} more`);
if (bad.length) {
  console.error(`check-test-output: ${bad.length} line${bad.length === 1 ? '' : 's'} a passing npm test must not print`);
  process.exit(1);
}
console.log(`check-test-output: ${lines.length} lines, no error-like line and no escape sequence`);
