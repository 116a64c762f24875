/**
 * Realistic fake credentials, built at run time from a seeded generator so that this
 * repository holds no secret-looking literal (prefixes are split for the same reason).
 */

/** A small deterministic generator (mulberry32): same seed, same tokens. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEXL = '0123456789abcdef';
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;

export class FakeSecrets {
  private readonly rnd: () => number;
  constructor(seed = 42) {
    this.rnd = seeded(seed);
  }

  /** `n` characters from `alphabet`, with at least one digit when the alphabet has digits. */
  chars(alphabet: string, n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.rnd() * alphabet.length)];
    if (/\d/.test(alphabet) && !/\d/.test(s)) s = `${s.slice(0, -1)}7`;
    return s;
  }

  awsAccessKey() {
    return ['AK', 'IA'].join('') + this.chars(UPPER + DIGITS, 16);
  }
  awsSecretAssignment() {
    return `aws_secret_access_key = ${this.chars(B64, 40)}`;
  }
  openAiKey() {
    return ['s', 'k-proj-'].join('') + this.chars(ALNUM, 48);
  }
  openAiLegacyKey() {
    return ['s', 'k-'].join('') + this.chars(ALNUM, 48);
  }
  anthropicKey() {
    return ['s', 'k-ant-api03-'].join('') + this.chars(`${ALNUM}_-`, 90);
  }
  githubClassic(kind: 'ghp' | 'gho' | 'ghu' | 'ghs' | 'ghr' = 'ghp') {
    return `${kind}${'_'}${this.chars(ALNUM, 36)}`;
  }
  githubFineGrained() {
    return ['github', '_pat_'].join('') + `${this.chars(ALNUM, 22)}_${this.chars(ALNUM, 59)}`;
  }
  gitlab() {
    return ['gl', 'pat-'].join('') + this.chars(`${ALNUM}_-`, 20);
  }
  slackBot() {
    return ['xo', 'xb-'].join('') + `${this.chars(DIGITS, 12)}-${this.chars(DIGITS, 13)}-${this.chars(ALNUM, 24)}`;
  }
  slackWebhook() {
    return `https://hooks.${'slack'}.com/services/T${this.chars(UPPER + DIGITS, 8)}/B${this.chars(UPPER + DIGITS, 10)}/${this.chars(ALNUM, 24)}`;
  }
  googleApiKey() {
    return ['AI', 'za'].join('') + this.chars(`${ALNUM}_-`, 35);
  }
  googleOauthSecret() {
    return ['GOC', 'SPX-'].join('') + this.chars(`${ALNUM}_-`, 28);
  }
  stripe() {
    return ['s', 'k_live_'].join('') + this.chars(ALNUM, 24);
  }
  npm() {
    return ['np', 'm_'].join('') + this.chars(ALNUM, 36);
  }
  huggingFace() {
    return ['h', 'f_'].join('') + this.chars(ALNUM, 34);
  }
  sendgrid() {
    return ['S', 'G.'].join('') + `${this.chars(`${ALNUM}_-`, 22)}.${this.chars(`${ALNUM}_-`, 43)}`;
  }
  twilio() {
    return `S${'K'}${this.chars(HEXL, 32)}`;
  }
  digitalOcean() {
    return ['do', 'p_v1_'].join('') + this.chars(HEXL, 64);
  }
  shopify() {
    return ['shp', 'at_'].join('') + this.chars(HEXL, 32);
  }
  pypi() {
    return ['pypi-', 'AgEIcHlwaS5vcmc'].join('') + this.chars(`${ALNUM}_-`, 60);
  }
  sshRsa() {
    return `${'ssh'}-rsa AAAAB3NzaC1yc2E${this.chars(B64, 300)} dev@laptop`;
  }
  sshEd25519() {
    return `${'ssh'}-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${this.chars(B64, 43)} dev@laptop`;
  }
  privateKeyBlock(kind = 'RSA ') {
    const dashes = '-'.repeat(5);
    const body = Array.from({ length: 4 }, () => this.chars(B64, 64)).join('\n');
    return `${dashes}BEGIN ${kind}PRIVATE KEY${dashes}\n${body}\n${dashes}END ${kind}PRIVATE KEY${dashes}`;
  }
  jwt() {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: this.chars(DIGITS, 10), name: 'Ada', iat: 1767225600 })}.${this.chars(B64URL, 43)}`;
  }
  password() {
    return `${this.chars(UPPER, 2)}${this.chars(LOWER, 6)}${this.chars(DIGITS, 3)}!`;
  }
  urlWithCredentials() {
    return `postgres://app:${this.password()}@db.internal:5432/app`;
  }
}
