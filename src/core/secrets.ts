/**
 * The secret scanner (DESIGN.md "Safety rules on every write"). Pure: text in, hits out.
 * Each rule looks for a token's real shape (prefix, alphabet, length), so prose that only
 * mentions "token", "password" or "sk-" is not a hit.
 */
export interface SecretRule {
  kind: string;
  re: RegExp;
  /** which capture group holds the secret value (default: the whole match) */
  group?: number;
  /** rejects matches that look like placeholders */
  accept?: (value: string) => boolean;
}

export interface SecretHit {
  kind: string;
  value: string;
  /** 1-based line within the scanned text */
  line: number;
  index: number;
}

const PLACEHOLDER = /^(<[^>]*>|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%?|\*+|x{3,}|\.{3,}|changeme|redacted|example|placeholder|dummy|none|null|true|false|undefined|your[-_a-z]*|\{\{.*\}\})$/i;

// Unquoted code that reads a credential (`cfg.auth.token`, `getToken()`, `os.environ["KEY"]`)
// names where a secret lives; it is not one.
const CODE_REFERENCE = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*[([]|^[A-Za-z_$]+(\.[A-Za-z_$]+)+$/;

function realValue(v: string): boolean {
  const bare = v.replace(/^["'`]|["'`,;]$/g, '');
  if (bare.length < 8 || PLACEHOLDER.test(bare)) return false;
  if (!/^["'`]/.test(v) && CODE_REFERENCE.test(bare)) return false;
  if (/^(.)\1+$/.test(bare)) return false;
  // A real credential mixes character classes; a word like "reset_required" does not.
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((r) => r.test(bare)).length;
  return classes >= 2 && !/^[a-z]+([_-][a-z]+)*$/.test(bare);
}

export const SECRET_RULES: SecretRule[] = [
  { kind: 'AWS access key', re: /\b((?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16})\b/g, group: 1 },
  { kind: 'AWS secret key', re: /\baws_?secret_?access_?key\b\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b/gi, group: 1 },
  { kind: 'Anthropic API key', re: /\b(sk-ant-[A-Za-z0-9_-]{20,})/g, group: 1 },
  { kind: 'OpenAI-style API key', re: /\b(sk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,})/g, group: 1, accept: (v) => !v.startsWith('sk-ant-') && /\d/.test(v) },
  { kind: 'Stripe key', re: /\b((?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,})\b/g, group: 1 },
  { kind: 'GitHub token', re: /\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,})\b/g, group: 1 },
  { kind: 'GitHub fine-grained token', re: /\b(github_pat_[A-Za-z0-9_]{22,})\b/g, group: 1 },
  { kind: 'GitLab token', re: /\b(gl(?:pat|dt|ptt|rt|oas|cbt|soat)-[A-Za-z0-9_-]{20,})/g, group: 1 },
  { kind: 'Slack token', re: /\b(xox[abposr]-[A-Za-z0-9-]{10,})/g, group: 1 },
  { kind: 'Slack webhook', re: /(https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]+)/g, group: 1 },
  { kind: 'Google API key', re: /\b(AIza[0-9A-Za-z_-]{35})/g, group: 1 },
  { kind: 'Google OAuth secret', re: /\b(GOCSPX-[A-Za-z0-9_-]{24,})/g, group: 1 },
  { kind: 'npm token', re: /\b(npm_[A-Za-z0-9]{36})\b/g, group: 1 },
  { kind: 'PyPI token', re: /\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})/g, group: 1 },
  { kind: 'Hugging Face token', re: /\b(hf_[A-Za-z0-9]{34,})\b/g, group: 1 },
  { kind: 'SendGrid key', re: /\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})/g, group: 1 },
  { kind: 'Twilio key', re: /\b(SK[0-9a-f]{32})\b/g, group: 1 },
  { kind: 'DigitalOcean token', re: /\b(do[pro]_v1_[a-f0-9]{64})\b/g, group: 1 },
  { kind: 'Shopify token', re: /\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b/g, group: 1 },
  { kind: 'SSH public key', re: /\b((?:ssh-rsa|ssh-ed25519|ssh-dss|ecdsa-sha2-nistp(?:256|384|521)) AAAA[A-Za-z0-9+/]{20,}={0,3})/g, group: 1 },
  { kind: 'private key', re: /(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)/g, group: 1 },
  { kind: 'JWT', re: /\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g, group: 1 },
  {
    kind: 'credential in URL',
    re: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s:/@]{6,})@/gi,
    group: 1,
    accept: realValue,
  },
  {
    kind: 'password/token assignment',
    re: /\b(?:[A-Za-z0-9_]*?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|client[_-]?secret))\s*(?:=|:=|:(?=\s*["']))\s*("[^"\n]*"|'[^'\n]*'|[^\s,;)]+)/gi,
    group: 1,
    accept: realValue,
  },
];

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Every rule needs one of these fragments; text without any is clean, and checking them
 * with one regex spares compiling two dozen on every write.
 */
const TRIGGER = /AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|secret|sk-|sk_|rk_|pk_|gh[pousr]_|github_pat_|gl[a-z]+-|xox|hooks\.slack|AIza|GOCSPX|npm_|pypi-|hf_|SG\.|SK[0-9a-f]|do[pro]_v1|shp[a-z]+_|ssh-|ecdsa-|PRIVATE KEY|eyJ|:\/\/|passw|pwd|token|key/i;

/** Finds secrets in `text`, ignoring values that match an allow pattern. */
export function scanText(text: string, allow: RegExp[] = []): SecretHit[] {
  if (!TRIGGER.test(text)) return [];
  const hits: SecretHit[] = [];
  const taken: [number, number][] = [];
  for (const rule of SECRET_RULES) {
    rule.re.lastIndex = 0;
    for (const m of text.matchAll(rule.re)) {
      const value = m[rule.group ?? 0] ?? m[0];
      const index = (m.index ?? 0) + m[0].indexOf(value);
      if (rule.accept && !rule.accept(value)) continue;
      if (allow.some((a) => a.test(value) || a.test(m[0]))) continue;
      // A value already reported by a more specific rule is not reported twice.
      if (taken.some(([s, e]) => index < e && index + value.length > s)) continue;
      taken.push([index, index + value.length]);
      hits.push({ kind: rule.kind, value, line: lineAt(text, index), index });
    }
  }
  return hits.sort((a, b) => a.index - b.index);
}

/** Keeps a recognizable head and hides the rest: `AKIA************`. */
export function mask(value: string): string {
  const bare = value.replace(/^["']|["']$/g, '');
  const keep = Math.min(4, Math.floor(bare.length / 4));
  return `${bare.slice(0, keep)}${'*'.repeat(Math.max(4, Math.min(12, bare.length - keep)))}`;
}

/** Replaces every secret in `text` by its mask (for tool-filled fields such as commit subjects). */
export function maskSecrets(text: string, allow: RegExp[] = []): string {
  const hits = scanText(text, allow);
  let out = text;
  for (const h of [...hits].reverse()) out = out.slice(0, h.index) + mask(h.value) + out.slice(h.index + h.value.length);
  return out;
}

/** Compiles `handoff.secrets.allow` values; an invalid pattern matches itself literally. */
export function compileAllow(patterns: string[]): RegExp[] {
  return patterns.map((p) => {
    try {
      return new RegExp(p);
    } catch {
      return new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
  });
}

export interface FieldSecret extends SecretHit {
  field: string;
}

/** Scans every string of a (user-given) handoff, naming the field of each hit. */
export function scanFields(value: unknown, allow: RegExp[] = [], field = ''): FieldSecret[] {
  if (typeof value === 'string') return scanText(value, allow).map((h) => ({ ...h, field: field || '(value)' }));
  if (Array.isArray(value)) return value.flatMap((v, i) => scanFields(v, allow, `${field}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [
      ...scanText(k, allow).map((h) => ({ ...h, field: field ? `${field}.${k}` : k })),
      ...scanFields(v, allow, field ? `${field}.${k}` : k),
    ]);
  }
  return [];
}
