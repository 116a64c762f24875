// The rows of private and team handoffs (issue 26, docs/privacy.md) in `npm run bench`:
// - `show` of a private latest against `show` of the same handoff shared (target <= 1.3: the
//   age library is loaded and one note decrypted, nothing else);
// - `log --json` over 5,000 private versions with the key (every note decrypted), and
//   without one (every version one line), beside the same over 5,000 shared versions;
// - diff and show --version ~100 over them without a key, beside the same shared.
// The encrypted fixture's notes are encrypted by age-encryption itself, in one child process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture } from './fixture.mjs';

/** Runs `script` (an ES module) in a child node with `input` as JSON on stdin; its stdout as JSON. */
function withAge(root, script, input) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, input: JSON.stringify(input), maxBuffer: 1 << 30 });
  return JSON.parse(out.toString('utf8'));
}

const READ = `let s='';for await (const c of process.stdin) s+=c;const input=JSON.parse(s);const age=await import('age-encryption');`;

/** A new identity file (mode 0600) in `config`/git-handoff/identity.txt; its public key. */
function makeIdentity(root, config) {
  const { secret, recipient } = withAge(
    root,
    `${READ}const secret=await age.generateX25519Identity();process.stdout.write(JSON.stringify({secret,recipient:await age.identityToRecipient(secret)}));`,
    {},
  );
  mkdirSync(join(config, 'git-handoff'), { recursive: true, mode: 0o700 });
  writeFileSync(join(config, 'git-handoff', 'identity.txt'), `${secret}\n`, { mode: 0o600 });
  return recipient;
}

/** `texts` encrypted to `recipient`, armoured, as `write --private` stores them. */
const sealer = (root, recipient) => (texts) =>
  withAge(
    root,
    `${READ}const out=[];for (const t of input.texts){const e=new age.Encrypter();e.addRecipient(input.recipient);out.push(age.armor.encode(await e.encrypt(t)));}process.stdout.write(JSON.stringify(out));`,
    { recipient, texts },
  );

export function benchPrivacy({ root, work, run, interleave, few, row, log, big }) {
  const withKey = join(work, 'xdg-key');
  const noKey = join(work, 'xdg-none');
  mkdirSync(noKey, { recursive: true });
  const recipient = makeIdentity(root, withKey);
  const seal = sealer(root, recipient);
  const shared1 = join(work, 'privacy-shared-1');
  const private1 = join(work, 'privacy-private-1');
  buildFixture(shared1, { commits: 200, versions: 1 });
  buildFixture(private1, { commits: 200, versions: 1, seal });
  const key = { XDG_CONFIG_HOME: withKey };
  const [enc, plain] = interleave([
    () => run('git', ['handoff', 'show'], { cwd: private1, extraEnv: key }),
    () => run('git', ['handoff', 'show'], { cwd: shared1, extraEnv: key }),
  ]);
  row('git handoff show of a private latest', '200 commits, 1 version', enc, plain, 'show of the same handoff shared', 1.3);

  const t0 = Date.now();
  const sealed = join(work, 'privacy-private-5k');
  buildFixture(sealed, { commits: 20000, versions: 5000, seal });
  log(`  private 5k fixture built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const [logKey, logShared, logNone] = few(
    [
      () => run('git', ['handoff', 'log', '--json'], { cwd: sealed, extraEnv: key }),
      () => run('git', ['handoff', 'log', '--json'], { cwd: big, extraEnv: key }),
      () => run('git', ['handoff', 'log', '--json'], { cwd: sealed, extraEnv: { XDG_CONFIG_HOME: noKey } }),
    ],
    5,
  );
  row('git handoff log --json, 5k private versions, with the key', '20k commits, 5k versions', logKey, logShared, 'log --json of 5k shared versions', null);
  row('git handoff log --json, 5k private versions, without a key', '20k commits, 5k versions', logNone, logShared, 'log --json of 5k shared versions', null);

  // The readers that name a few versions (diff's two, ~N, MCP's first 20) read only those,
  // also without the key: not the whole history first to find no head it can use.
  const none = { XDG_CONFIG_HOME: noKey };
  const [diffNone, diffShared, tildeNone, tildeShared] = few(
    [
      () => run('git', ['handoff', 'diff'], { cwd: sealed, extraEnv: none }),
      () => run('git', ['handoff', 'diff'], { cwd: big, extraEnv: none }),
      () => run('git', ['handoff', 'show', '--version', '~100'], { cwd: sealed, extraEnv: none }),
      () => run('git', ['handoff', 'show', '--version', '~100'], { cwd: big, extraEnv: none }),
    ],
    5,
  );
  row('git handoff diff, 5k private versions, without a key', '20k commits, 5k versions', diffNone, diffShared, 'diff of 5k shared versions', null);
  row('git handoff show --version ~100, 5k private, without a key', '20k commits, 5k versions', tildeNone, tildeShared, 'the same of 5k shared versions', null);
}
