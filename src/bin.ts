import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`git handoff: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 3;
  },
);
