/**
 * A corpus to measure the scanner: positive values in each provider's documented
 * format (from secret-samples.ts), set in the places a handoff holds them (prose, YAML,
 * JSON, env, shell, code), plus generic credentials in every common syntax; and lines of
 * ordinary engineering prose, many of which talk about tokens, keys and passwords.
 * Built at run time: nothing here is a live token.
 */
import { SECRET_RULES } from '../../src/core/secret-rules.js';
import { FakeSecrets } from './fake-secrets.js';
import { SAMPLES, sampler, ALNUM } from './secret-samples.js';

export interface Positive {
  family: string;
  rule: string;
  text: string;
}

const TOKEN_CONTEXTS = [
  (v: string) => `The deploy used ${v} until we rotated it.`,
  (v: string) => `note: "${v}"`,
  (v: string) => `  - ${v}`,
  (v: string) => `{"next_step": "call the API with ${v}"}`,
  (v: string) => `curl https://api.internal/v1 -d token=${v}`,
  (v: string) => `the key is ${v}`,
];

const NAMED_CONTEXTS = [
  (n: string, v: string) => `${n}=${v}`,
  (n: string, v: string) => `export ${n}="${v}"`,
  (n: string, v: string) => `${n.toLowerCase()}: ${v}`,
  (n: string, v: string) => `{"${n.toLowerCase()}": "${v}"}`,
  (n: string, v: string) => `${n.toLowerCase()} = '${v}'`,
];

const GENERIC_SYNTAXES = [
  (p: string) => `DB_PASSWORD=${p}`,
  (p: string) => `export API_TOKEN="${p}"`,
  (p: string) => `x_token: ${p}`,
  (p: string) => `password: "${p}"`,
  (p: string) => `{"client_secret": "${p}"}`,
  (p: string) => `api_key = "${p}"`,
  (p: string) => `[smtp]\npassword = ${p}`,
  (p: string) => `var serviceToken string = "${p}"`,
  (p: string) => `TOKEN ?= ${p}`,
  (p: string) => `SECRET ::= ${p}`,
  (p: string) => `'password' => '${p}',`,
  (p: string) => `:auth_token => "${p}"`,
  (p: string) => `<password>${p}</password>`,
  (p: string) => `redis://:${p}@cache:6379/0`,
  (p: string) => `amqp://deploy:${p}@mq.internal:5672/`,
  (p: string) => `mySecretString=${p}`,
  (p: string) => `creds: ${p}`,
  (p: string) => `private-key: ${p}`,
  (p: string) => `the staging database password is ${p} until Friday`,
  (p: string) => `run it with --password ${p}`,
];

/** `perFamily` token/named samples per rule, plus each generic syntax `perSyntax` times. */
export function positives(seed = 2026, perRule = 3, perSyntax = 4): Positive[] {
  const out: Positive[] = [];
  for (const rule of SECRET_RULES) {
    for (let i = 0; i < perRule; i++) {
      const s = seed + i * 7919 + rule.id.length;
      const v = sampler(s)(rule.id);
      const name = SAMPLES[rule.id].name;
      const text = name
        ? NAMED_CONTEXTS[(i + rule.id.length) % NAMED_CONTEXTS.length](name, v)
        : TOKEN_CONTEXTS[(i + rule.id.length) % TOKEN_CONTEXTS.length](v);
      out.push({ family: rule.family, rule: rule.id, text });
    }
  }
  const f = new FakeSecrets(seed);
  for (const [i, syntax] of GENERIC_SYNTAXES.entries()) {
    for (let k = 0; k < perSyntax; k++) {
      const p = k % 2 ? f.password() : f.chars(`${ALNUM}!#%+`, 10 + k * 3);
      out.push({ family: 'generic', rule: `generic syntax ${i}`, text: syntax(p) });
    }
  }
  // Forms the scanner once missed (issue 23): an append operator, Make's :::=, a password
  // in prose with a symbol in it or after `is now`. Values made here, never live.
  const v = (k: number) => f.chars(`${ALNUM}`, 24 + k);
  const missedOnce = [
    (k: number) => `$token .= "${v(k)}";`,
    (k: number) => `API_TOKEN :::= ${v(k)}`,
    (k: number) => `the password is ${f.password()}&${k}`,
    (k: number) => `The admin password is now ${f.password()}#${k}`,
    // a key (a weak name alone) in prose, given a long token: hex or the token alphabet
    (k: number) => `my api key is ${f.chars('0123456789abcdef', 32 + k)}`,
    (k: number) => `The API key is ${f.chars('0123456789abcdef', 32 + 2 * k)}, rotate it on Monday`,
    (k: number) => `our stripe key was ${f.chars(ALNUM, 32 + k)}`,
    (k: number) => `the access key is: ${f.chars(ALNUM, 40 + k)}`,
  ];
  for (const [i, form] of missedOnce.entries()) for (let k = 0; k < 2; k++) out.push({ family: 'generic', rule: `missed once ${i}`, text: form(k) });
  return out;
}

/** Written by hand: handoff-style prose that names credentials, formats and placeholders. */
const HAND_WRITTEN = `Rotate the GitHub token before Friday; the old one leaked in CI logs.
The password reset flow sends a one-time token by email and expires it after 15 minutes.
Keys that start with sk- or AKIA are caught by the scanner before anything is written.
ghp_ tokens and github_pat_ tokens must never be committed, not even in tests.
Slack tokens look like xoxb- followed by numbers; ours live in the vault now.
set token=<your-token> in .env before running the smoke test
password=changeme is the documented default for the local stack
DB_PASSWORD=changeme. is what docker-compose.yml ships with
secret=\${CI_SECRET} comes from the pipeline, never from the repository
token=\${GITHUB_TOKEN:-} falls back to nothing when the variable is unset
token=$(gh auth token) is how the release script gets its credential
PWD=/home/dev/projects/widgets is printed by the failing job's env dump
password: "ask the team lead for it"
api_key: "see the staging entry in 1Password"
secret: "********"
the password field is required on the admin page
api_key = os.environ["API_KEY"] reads it at start-up
token = cfg.auth.token is passed to the client unchanged
auth_token = getAuthToken() refreshes when the old one is within a minute of expiry
password = process.env.DB_PASSWORD
the aws_secret_access_key setting lives in ~/.aws/credentials, not in the repo
the BEGIN PRIVATE KEY header marks a PEM block; we only store the public half
ssh-rsa keys are deprecated here; use ssh-ed25519 for the deploy user
JWTs start with eyJ and have three dot-separated parts
commit 0123456789abcdef0123456789abcdef01234567 fixed the token refresh race
https://github.com/acme/widgets/pull/12 explains the new password policy
ask-user: should the sk-proj keys be rotated together with the Stripe ones?
max_tokens: 4096 is enough for the summariser
token_url: https://auth.example.com/oauth/token
password_file=/run/secrets/db_password is mounted by the orchestrator
The cache key is derived from the lockfile hash, so a new dependency busts it.
We moved the API key check into middleware; the handler no longer reads headers.
Session cookies are now SameSite=Lax; the auth flow still works in Safari.
The secret manager client retries three times with exponential backoff.
OAuth client credentials are issued per environment; staging and prod never share.
Tokens are scoped to one repository; the org-wide token was revoked on Monday.
The key rotation job runs nightly at 02:00 UTC and posts to #infra.
If the password is wrong three times, the account locks for ten minutes.
The credential helper caches for an hour; run git credential-cache exit to clear it.
Bearer tokens expire after an hour; the SDK refreshes them transparently.
We store only a bcrypt hash of the password, cost factor 12.
The API returns 401 when the token is missing and 403 when it lacks the scope.
the token is stored in the OS keychain, never on disk
The signing key for release artefacts is in the HSM; CI only gets a signing service URL.
Use the auth header name from the config; some proxies strip Authorization.
Login with SSO is mandatory for the admin console since March.
The webhook secret is checked with a constant-time comparison now.
Don't log request bodies: the login endpoint receives passwords in them.
The password policy requires twelve characters; the old eight-character rule is gone.
We replaced the shared secret with mTLS between the gateway and the workers.
The API key quota is 1000 requests per minute per key.
Two keys can be active at once during rotation, the old one for 24 hours.
Token introspection is cached for 30 seconds to keep the auth service load down.
The secrets.yaml file is encrypted with sops; decrypt it with the team's age key.
Keep the private key out of the container image; mount it at run time.
The user's password hash moved from SHA-1 to argon2id in migration 0042.
Next: wire the token refresh into the CLI and add a test for clock skew.
Decided: environment variables, not a config file, for every credential.
Open question: does the staging database still accept password auth?
The .env.example file lists every variable with a placeholder value.
API_KEY=your_api_key_here is the line in .env.example
client_secret: "{{ .Values.clientSecret }}" is templated by Helm
token: \${{ secrets.GITHUB_TOKEN }} is how the workflow passes it
The Terraform state holds the RDS password; the bucket is encrypted and versioned.
The key id AKIAIOSFODNN7EXAMPLE in the docs is AWS's own example.
postgres://user:password@localhost:5432/app is the URL in the quick start.
The tokenizer splits on whitespace; keyword extraction runs after it.
The keyboard shortcut for search is ctrl-k, not cmd-k.
Passwordless login is enabled for the beta group.
We bypass the cache for authenticated requests.
The author of the auth module left; Priya owns it now.
Authority records for the domain moved to Route 53 last week.
The token bucket rate limiter allows bursts of 20.
The secret santa bot posts in #random on Fridays.
Primary key on events is (tenant_id, id); the old surrogate key is dropped.
The foreign key from orders to users is deferred until commit.
Sort keys in the JSON output so diffs stay small.
Keys in the YAML are snake_case; the loader maps them to camelCase.
The map's key type is a string; the value is the parsed record.
Use a composite key for the cache: region plus day.
The public key fingerprint is printed by ssh-keygen -lf.
SHA-256 of the release tarball is in the release notes.
The idempotency key header makes retries safe.
The partition key for the stream is the customer id.
Press the any key to continue (the installer's joke, not ours).
License key validation happens offline with a signed payload.
The encryption key is wrapped by KMS; only the wrapped form is stored.
We pass the auth context down instead of reading globals.
OAuth scopes are now least-privilege: read:packages only.
The credentials file permission is checked to be 0600 at start-up.
Passphrase prompts are skipped when an agent holds the key.
The secret sauce is really just a good cache.
Token counts from the model are logged per request.
The parser treats a token of type STRING with escapes specially.
A lexer token carries its line and column for error messages.
Secrets are injected as files under /run/secrets by the orchestrator.
The auth service has a p99 of 40 ms after the index change.
Login failures are rate-limited per IP and per account.
Rotate every credential that was in the leaked image; list in INC-2291.
The secret scanning alert was a false positive on a test fixture.
The API gateway validates JWTs against the JWKS endpoint.
We pin the TLS key to the leaf certificate for the mobile app.
Keys rotate automatically every 90 days; the reminder email goes out at 80.
The password manager export is not allowed on company laptops.
Deployment keys are read-only; the write key lives with the release bot.
Cookie auth was removed from the public API in v3.
The vault token TTL is 32 days with a periodic renewal.
Token exchange happens once per job, not once per request.
Our SSH certificates are valid for 16 hours.
Git credential helpers store tokens in plain text unless configured otherwise.
The user can reset their password from the profile page.
Migrations must never print connection strings; they include the password.
The redis URL has no password locally; production uses ACLs.
The login page's password input now has autocomplete=current-password.
A new API key is generated per integration; old ones keep working until revoked.
There are 3 open tracks: parser, CLI, docs.
The tests are flaky on CI because of a timeout in the fixture server.
Next step: finish the migration script and run it against a copy of staging.
Guard: never push with --force to main.
The CI job caches node_modules keyed on the lockfile.
Review comments from Ana are addressed except the naming one.
Benchmark results are noisy on the shared runner; rerun before deciding.
The merge queue rejects commits without a signed-off-by line.
We decided to keep YAML for the config and JSON for machine output.
Memory: the staging cluster is us-east-1, prod is eu-west-1.
Ask the user whether the retry budget should be 3 or 5.
The schema version moved to 2; readers accept both for a release.
Docs: the quick start now uses npm ci instead of npm install.
The release is tagged v1.4.0; the changelog lists the breaking flag rename.
Refactor: the sweep planner is pure now and returns a plan object.
Open: the Windows path handling in the hook shim.
The flaky test was an ordering bug; it sorts by id now.
Kubernetes secrets for the app are created by the operator, not by hand.
The kind: Secret manifests are generated by sealed-secrets in the cluster.
The Stripe webhook endpoint verifies signatures with the endpoint's signing secret.
Twilio messages are sent through the messaging service, not a raw number.
Sentry DSNs are public by design; the auth token for releases is not.
The Datadog agent reads its API key from the secret store at boot.
Heroku config vars hold the database URL; we read it at start-up.
The Slack app uses socket mode; its app-level token is in the vault.
GitLab runners register with a token from the group settings page.
The npm publish step uses a granular access token scoped to one package.
PyPI trusted publishing removed the need for an API token in CI.
Cloudflare API tokens are scoped per zone now.
The OpenAI key used by the summariser is per project and capped at 50 dollars.
Anthropic keys are issued per workspace; the eval workspace has its own.
Hugging Face tokens with write scope are only on the release machine.
The Google API key is restricted to the Maps JavaScript API and our referrers.
Azure service principals authenticate with a certificate instead of a secret.
The DigitalOcean token for the droplet snapshots expired; renew it in March.
Vault's kv-v2 engine keeps 10 versions of each secret.
1Password CLI reads the secret at run time with op read.
Doppler injects variables into the process; nothing is written to disk.
The mailgun domain is verified; DKIM keys are published in DNS.
the password is in the vault, ask Dana for access
the password is required by the staging proxy since Monday
The admin password is now rotated every 30 days by the job
my api key is rotated weekly by the platform team
the api key is 32 characters of hex, never shorter
my api key is in 1Password under the team vault
the key is deadbeef, a test fixture, not a real one
the cache key is 4f2a and expires after a day
the key is 9fceb02d0ae598e95dc970b74767f19372d61af8, the commit that added it
$total .= "items"; appends to the report line
the token is still pending review by security
Tailscale keys (tskey-auth-...) are created in the admin console, never in the repo`.split('\n');

const SUBJECTS = [
  'the token refresh',
  'the password reset flow',
  'the API key check',
  'the auth middleware',
  'the secret store client',
  'the credential helper',
  'the key rotation job',
  'the login page',
  'the session cookie handling',
  'the OAuth callback',
  'the signing service',
  'the webhook verifier',
  'the keychain integration',
  'the SSO redirect',
  'the access token cache',
];
const ACTIONS = [
  'now retries on 429 with backoff',
  'was moved behind a feature flag',
  'has a regression test for clock skew',
  'logs the request id but never the body',
  'is covered by the new integration suite',
  'needs a review from security before release',
  'timed out twice on CI today',
  'reads its settings from the environment',
  'lost 30% latency after the index change',
  'is documented in docs/auth.md',
  'fails when the clock drifts by more than a minute',
  'is owned by the platform team from next sprint',
];
const TAILS = ['', '; see PR 482', ' (ticket SEC-117)', ', next step is the migration', '. Ask the user before enabling it in prod.', ', decided on Tuesday'];

/** `n` lines of ordinary engineering prose: the hand-written ones, then templated ones. */
export function prose(n = 480): string[] {
  const out = [...HAND_WRITTEN];
  for (let i = 0; out.length < n; i++) {
    out.push(
      `${SUBJECTS[i % SUBJECTS.length]} ${ACTIONS[Math.floor(i / SUBJECTS.length) % ACTIONS.length]}${TAILS[Math.floor(i / (SUBJECTS.length * ACTIONS.length)) % TAILS.length]}`.replace(
        /^./,
        (c) => c.toUpperCase(),
      ),
    );
  }
  return [...new Set(out)];
}

export const HAND_WRITTEN_COUNT = HAND_WRITTEN.length;

export interface CorpusScore {
  positives: number;
  caught: number;
  families: number;
  missedFamilies: string[];
  missed: Positive[];
  proseLines: number;
  falseAlarms: { line: string; kind: string }[];
}

/** Scans the corpus: a positive is caught when any hit covers it; a prose line with a hit is a false alarm. */
export function scoreCorpus(scan: (text: string) => { kind: string }[], seed = 2026): CorpusScore {
  const pos = positives(seed);
  const missed = pos.filter((p) => scan(p.text).length === 0);
  const families = new Set(pos.map((p) => p.family));
  const caughtFamilies = new Set(pos.filter((p) => !missed.includes(p)).map((p) => p.family));
  const lines = prose();
  const falseAlarms = lines.flatMap((line) => scan(line).map((h) => ({ line, kind: h.kind })));
  return {
    positives: pos.length,
    caught: pos.length - missed.length,
    families: families.size,
    missedFamilies: [...families].filter((f) => !caughtFamilies.has(f)),
    missed,
    proseLines: lines.length,
    falseAlarms,
  };
}
