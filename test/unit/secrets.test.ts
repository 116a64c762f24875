import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileAllow, mask, maskSecrets, scanFields, scanText } from '../../src/core/secrets.js';
import { FakeSecrets } from '../helpers/fake-secrets.js';

const f = new FakeSecrets(7);

// Every family DESIGN.md lists, plus the other common provider formats the scanner knows.
const families: [string, string, RegExp][] = [
  ['AWS access key', f.awsAccessKey(), /AWS access key/],
  ['AWS secret key', f.awsSecretAssignment(), /AWS secret key|assignment/],
  ['OpenAI project key', f.openAiKey(), /API key/],
  ['OpenAI legacy key', f.openAiLegacyKey(), /API key/],
  ['Anthropic key', f.anthropicKey(), /Anthropic/],
  ['GitHub ghp_ token', f.githubClassic('ghp'), /GitHub token/],
  ['GitHub gho_ token', f.githubClassic('gho'), /GitHub token/],
  ['GitHub ghs_ token', f.githubClassic('ghs'), /GitHub token/],
  ['GitHub fine-grained token', f.githubFineGrained(), /GitHub fine-grained/],
  ['GitLab token', f.gitlab(), /GitLab/],
  ['Slack bot token', f.slackBot(), /Slack token/],
  ['Slack webhook', f.slackWebhook(), /Slack webhook/],
  ['Google API key', f.googleApiKey(), /Google API key/],
  ['Google OAuth secret', f.googleOauthSecret(), /Google OAuth/],
  ['Stripe key', f.stripe(), /Stripe/],
  ['npm token', f.npm(), /npm/],
  ['Hugging Face token', f.huggingFace(), /Hugging Face/],
  ['SendGrid key', f.sendgrid(), /SendGrid/],
  ['Twilio key', f.twilio(), /Twilio/],
  ['DigitalOcean token', f.digitalOcean(), /DigitalOcean/],
  ['Shopify token', f.shopify(), /Shopify/],
  ['PyPI token', f.pypi(), /PyPI/],
  ['ssh-rsa key', f.sshRsa(), /SSH/],
  ['ssh-ed25519 key', f.sshEd25519(), /SSH/],
  ['RSA private key block', f.privateKeyBlock('RSA '), /private key/],
  ['OpenSSH private key block', f.privateKeyBlock('OPENSSH '), /private key/],
  ['PKCS#8 private key block', f.privateKeyBlock(''), /private key/],
  ['EC private key block', f.privateKeyBlock('EC '), /private key/],
  ['JWT', f.jwt(), /JWT/],
  ['password= assignment', `password=${f.password()}`, /assignment/],
  ['token= assignment', `token=${f.password()}`, /assignment/],
  ['secret= assignment', `secret=${f.password()}`, /assignment/],
  ['quoted YAML-style assignment', `DB_PASSWORD: "${f.password()}"`, /assignment/],
  ['api_key with spaces', `api_key = '${f.password()}'`, /assignment/],
  ['credentials in a URL', f.urlWithCredentials(), /credential in URL|assignment/],
  ['an unquoted password with dots', `password=${f.password()}.v2`, /assignment/],
  ['a quoted value that looks like code', `token = "${f.password()}.cfg.token"`, /assignment/],
];

describe('scanText finds every family', () => {
  it.each(families)('%s', (_name, secret, kind) => {
    const text = `We deployed yesterday.\nIt used ${secret} for the call.\n`;
    const hits = scanText(text);
    expect(hits.length).toBeGreaterThanOrEqual(1);
    expect(hits[0].kind).toMatch(kind);
    expect(hits[0].line).toBe(2);
    expect(secret).toContain(hits[0].value);
  });

  it.each(families)('%s at the very start and end of the text, and inside quotes', (_n, secret) => {
    expect(scanText(secret).length).toBeGreaterThanOrEqual(1);
    expect(scanText(`"${secret}"`).length).toBeGreaterThanOrEqual(1);
    expect(scanText(`(${secret})`).length).toBeGreaterThanOrEqual(1);
  });

  it('reports each secret once and in order, with 1-based lines', () => {
    const a = f.awsAccessKey();
    const g = f.githubClassic();
    const hits = scanText(`first ${g}\n\nthird ${a}\n`);
    expect(hits.map((h) => [h.kind, h.line, h.value])).toEqual([
      ['GitHub token', 1, g],
      ['AWS access key', 3, a],
    ]);
  });
});

// Ordinary prose that mentions tokens, passwords or key prefixes (DESIGN.md, issue 2).
const prose = [
  'Rotate the GitHub token before Friday; the old one leaked in CI logs.',
  'The password reset flow sends a one-time token by email.',
  'Keys that start with sk- or AKIA are caught by the scanner.',
  'ghp_ tokens and github_pat_ tokens must never be committed.',
  'Slack tokens look like xoxb- followed by numbers.',
  'set token=<your-token> in .env before running',
  'password=changeme is the documented default for the local stack',
  'secret=${CI_SECRET} comes from the pipeline',
  'token=$GITHUB_TOKEN',
  'password: required for the admin page',
  'the BEGIN PRIVATE KEY header marks a PEM block',
  'ssh-rsa keys are deprecated; use ssh-ed25519 instead',
  'JWTs start with eyJ and have three parts',
  'token=reset_required is what the API returns',
  'api_key = os.environ["API_KEY"]',
  'token = cfg.auth.token',
  'auth_token = getAuthToken()',
  'password = process.env.DB_PASSWORD',
  'secret: "********"',
  'the aws_secret_access_key setting lives in ~/.aws/credentials',
  'Пароль и токен хранятся в vault; 密码和令牌在 vault 里。',
  'commit 0123456789abcdef0123456789abcdef01234567 fixed the token refresh',
  'https://github.com/acme/widgets/pull/12 explains the password policy',
  'ask-user: should the sk-proj keys be rotated?',
];

describe('scanText leaves ordinary prose alone', () => {
  it.each(prose)('%s', (text) => {
    expect(scanText(text)).toEqual([]);
  });

  it('property: text made of plain words never matches', () => {
    const word = fc.constantFrom(
      'token', 'tokens', 'password', 'passwords', 'secret', 'key', 'api', 'the', 'rotate', 'reset', 'sk-', 'AKIA', 'ghp_',
      'xoxb-', 'is', 'was', 'not', 'a', 'ssh-rsa', 'BEGIN', 'PRIVATE', 'KEY', 'eyJ', 'auth', 'login', 'done', '=', ':',
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), (ws) => {
        expect(scanText(ws.join(' '))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('allow list', () => {
  it('skips values that match handoff.secrets.allow', () => {
    const key = f.awsAccessKey();
    const other = f.githubClassic();
    const allow = compileAllow([`^${key}$`]);
    expect(scanText(`${key} and ${other}`, allow).map((h) => h.value)).toEqual([other]);
  });

  it('treats an invalid regex as a literal', () => {
    const tok = `token=(${f.password()}`;
    const allow = compileAllow([tok]);
    expect(allow[0].test(tok)).toBe(true);
    expect(scanText(tok, allow)).toEqual([]);
  });

  it('matches against the whole assignment too', () => {
    const text = `password=${f.password()}`;
    expect(scanText(text, compileAllow(['^password='])).length).toBe(0);
  });
});

describe('masking', () => {
  it.each(families)('masks a %s so that the secret cannot be read back', (_n, secret) => {
    const [hit] = scanText(secret);
    const bare = hit.value.replace(/^["']|["']$/g, '');
    const m = mask(hit.value);
    expect(m).not.toContain(bare);
    expect(m.length).toBeLessThanOrEqual(bare.length);
    expect(m).toMatch(/\*{4,}$/);
    expect(bare.startsWith(m.replace(/\*+$/, ''))).toBe(true);
  });

  it('keeps at most 4 leading characters', () => {
    expect(mask('ABCDEFGHIJKLMNOPQRST')).toBe('ABCD************');
    expect(mask('short123')).toBe('sh******');
  });

  it('maskSecrets replaces every hit in a text and keeps the rest', () => {
    const a = f.awsAccessKey();
    const g = f.githubClassic();
    const out = maskSecrets(`fix: use ${a} then ${g} (oops)`);
    expect(out).not.toContain(a);
    expect(out).not.toContain(g);
    expect(out).toMatch(/^fix: use AKIA\*+ then ghp_\*+ \(oops\)$/);
    expect(maskSecrets('feat: plain subject about tokens')).toBe('feat: plain subject about tokens');
  });
});

describe('scanFields names the field', () => {
  it('walks nested mappings and lists', () => {
    const g = f.githubClassic();
    const hits = scanFields({ summary: 'ok', cursor: { pending_questions: ['fine', `use ${g}?`] }, open_tracks: [{ name: 'a', entry_point: `x\n${f.awsAccessKey()}` }] });
    expect(hits.map((h) => [h.field, h.line])).toEqual([
      ['cursor.pending_questions[1]', 1],
      ['open_tracks[0].entry_point', 2],
    ]);
  });

  it('scans unknown fields and keys too', () => {
    const g = f.githubClassic();
    expect(scanFields({ custom: { deep: [g] } })[0].field).toBe('custom.deep[0]');
    expect(scanFields({ [g]: 'x' })[0].field).toBe(g);
  });
});
