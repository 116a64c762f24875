import { main } from './cli.js';
import { reportedMessage } from './errors.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`git handoff: ${reportedMessage(e)}\n`);
    process.exitCode = 3;
  },
);
