/**
 * Finds `name <op> value` on one line in every common syntax: env and shell
 * (`DB_PASSWORD=x`, `export TOKEN="x"`), YAML (`x_token: v`, quoted or not), JSON
 * (`"client_secret": "x"`), TOML and INI (`api_key = "x"`), Go (`var xToken string = "x"`,
 * `t := "x"`), TypeScript (`const apiKey: string = "x"`), Make (`?=`, `:=`, `::=`, `+=`),
 * Ruby and PHP (`'password' => 'x'`, `:token => "x"`), XML elements (`<password>x</password>`)
 * and attributes (`<add key="Password" value="x"/>`), command-line flags (`--token x`) and
 * prose ("the password is x"). Pure: a line in, candidates out; judging is the caller's.
 */

export type AssignOp = 'assign' | 'xml' | 'flag' | 'prose';

export interface Assignment {
  name: string;
  value: string;
  /** offset of the value within the line */
  index: number;
  op: AssignOp;
  /** the value was written in quotes */
  quoted: boolean;
}

/** [\w$.-]: a character of a field name. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c === 46 || c === 45;
}
/** [A-Za-z_$]: a character a field name may start with. */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}
/** A declared type between name and `=`: Go `var t string =`, TypeScript/Kotlin/Rust `t: String =`. */
const TYPED = /(?:\s*:\s*|\s+)(?:string|String|str|&(?:'static )?str|\[\]byte|SecretStr|Secret|CharSequence|any|\*?char\s*\*?)\s*(?==(?![=~>]))/y;
// `:::=` (GNU Make 4.4) before `::=`; `.=` appends in PHP and Perl (`$token .= "x"`)
const OPERATOR = /\s*(=>|:::=|::=|:=|\?=|\+=|\.=|=(?![=~])|:(?![:=\\/]))[ \t]*/y;
// the longer forms first: `is now X` is X, not `now`
const PROSE = /\s+(?:(?:is set to|is now|is still|is|was|are):?|=|:)\s+/iy;
const ATTR_VALUE = /\s+value\s*=\s*/y;
/** What may follow a name that is assigned: an operator, a type, `is`, ` value=`, a flag's value. */
const NEXT = /[\s=:>?+]/;

function stickyAt(re: RegExp, line: string, at: number): RegExpExecArray | null {
  re.lastIndex = at;
  return re.exec(line);
}
const AUTH_SCHEME = /^(?:Bearer|Basic|Token|Bot|Digest)$/i;
// The expressions of the walk, made once (a literal in a function is a new object each call).
/** what follows a quoted key's closing quote when it is one: `"facebook access_token": ...` */
const KEY_END = /^\s*[:=]/;
const BARE_VALUE = /^[^\s"'`,;&)}\]<>]+/;
/** In prose a value ends only at white space or a closing mark: `the password is Tr0ub4dor&3`. */
const PROSE_VALUE = /^[^\s"'`,;)}\]<>]+/;
const TRAILING_PUNCTUATION = /[.,:;?]+$/;
const SCHEME_AND_VALUE = /^(\S+)\s+(\S+)$/;
const AFTER_SCHEME = /^[ \t]+([^\s"'`,;&)}\]<>]+)/;

/**
 * The assignments on `line` whose name contains one of the keyword occurrences at[from, to)
 * (flat [start, end) offset pairs in the line, from the scanner's keyword pass).
 */
export function assignmentsIn(line: string, at: ArrayLike<number>, from = 0, to = at.length): Assignment[] {
  const out: Assignment[] = [];
  let lastStart = -1;
  for (let i = from; i < to; i += 2) {
    const ks = at[i];
    const ke = at[i + 1];
    let start = ks;
    let end = ke;
    while (start > 0 && isNameChar(line.charCodeAt(start - 1))) start--;
    while (end < line.length && isNameChar(line.charCodeAt(end))) end++;
    while (start < ks && !isNameStart(line.charCodeAt(start))) start++;
    while (end > ke && (line[end - 1] === '.' || line[end - 1] === '-')) end--;
    if (start === lastStart) continue;
    lastStart = start;
    const a = parseAfter(line, start, end);
    if (a) out.push(a);
  }
  return out;
}

/** The assignment whose name is line[start, end), if an operator, a flag's blank or `is` follows it. */
function parseAfter(line: string, start: number, end: number): Assignment | null {
  const before = line[start - 1];
  // `${TOKEN:-default}` reads a variable; it assigns nothing.
  if (before === '{' && line[start - 2] === '$') return null;
  let p = end;
  // A quoted name (JSON, PHP, Ruby hash keys): step over its closing quote.
  if ((before === '"' || before === "'" || before === '`') && line[p] === before) p++;
  // The end of a quoted key of several words (`"facebook access_token": ...`).
  else if ((line[p] === '"' || line[p] === "'") && KEY_END.test(line.slice(p + 1, p + 4))) p++;

  if (before === '<' && line[p] === '>') {
    const close = line.indexOf('</', p + 1);
    if (close < 0) return null;
    const v = line.slice(p + 1, close).trim();
    return v ? { name: line.slice(start, end), value: v, index: line.indexOf(v, p + 1), op: 'xml', quoted: false } : null;
  }
  if (p >= line.length || !NEXT.test(line[p])) return null;
  const name = line.slice(start, end);
  // Cheap before the regexes: what follows the blanks must start an operator, a type, a
  // flag's value or `is`/`was`/`are`/`value` (most names in prose are followed by a word).
  let q = p;
  while (line[q] === ' ' || line[q] === '\t') q++;
  const ch = line[q];
  if (ch === undefined) return null;
  const isFlag = q > p && line.startsWith('--', start - 2);
  if (!isFlag && !'=:?+>.'.includes(ch) && !'iwavsca[&*IWAVSCA'.includes(ch)) return null;
  const attr = before === '"' || before === "'" ? stickyAt(ATTR_VALUE, line, p) : null;
  if (attr) return valueAt(line, p + attr[0].length, name, 'assign');
  const typed = stickyAt(TYPED, line, p);
  const at = p + (typed ? typed[0].length : 0);
  const op = stickyAt(OPERATOR, line, at);
  if (op) return valueAt(line, at + op[0].length, name, 'assign');
  if (isFlag) return valueAt(line, q, name, 'flag');
  const prose = stickyAt(PROSE, line, p);
  if (prose) return valueAt(line, p + prose[0].length, name, 'prose');
  return null;
}

/** Reads a quoted or bare value at `at`; an auth scheme (`Bearer x`) yields what follows it. */
function valueAt(line: string, at: number, name: string, op: AssignOp): Assignment | null {
  const q = line[at];
  let value: string;
  let index = at;
  const quoted = q === '"' || q === "'" || q === '`';
  if (q === '"' || q === "'" || q === '`') {
    let i = at + 1;
    let v = '';
    for (; i < line.length && line[i] !== q; i++) {
      if (line[i] === '\\' && i + 1 < line.length) {
        v += line[++i];
        continue;
      }
      v += line[i];
    }
    if (i >= line.length) return null;
    value = v;
    index = at + 1;
  } else {
    const m = (op === 'prose' ? PROSE_VALUE : BARE_VALUE).exec(line.slice(at));
    if (!m) return null;
    value = m[0].replace(TRAILING_PUNCTUATION, '');
  }
  const scheme = SCHEME_AND_VALUE.exec(value);
  if (scheme && AUTH_SCHEME.test(scheme[1])) {
    index += value.indexOf(scheme[2]);
    value = scheme[2];
  } else if (AUTH_SCHEME.test(value)) {
    const next = AFTER_SCHEME.exec(line.slice(index + value.length));
    if (!next) return null;
    index += value.length + next[0].indexOf(next[1]);
    value = next[1];
  }
  return value ? { name, value, index, op, quoted } : null;
}

/** The words of a name: `mySecretString` -> my, secret, string; `DB_PASSWORD` -> db, password. */
export function nameWords(name: string): string[] {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) >= 128) return nameWordsByRules(name);
  // ASCII (every field name the walk reads): the rules below as one walk. A word ends at
  // anything but a letter or digit, before a capital that follows a small letter or digit,
  // and before the last capital of a run that a small letter follows (`HTTPServer`).
  const low = name.toLowerCase();
  const out: string[] = [];
  let from = -1;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    if (!upper && !((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      if (from >= 0) out.push(low.slice(from, i));
      from = -1;
      continue;
    }
    if (upper && from >= 0) {
      const prev = name.charCodeAt(i - 1);
      const next = i + 1 < name.length ? name.charCodeAt(i + 1) : 0;
      if (!(prev >= 65 && prev <= 90) || (next >= 97 && next <= 122)) {
        out.push(low.slice(from, i));
        from = i;
      }
    }
    if (from < 0) from = i;
  }
  if (from >= 0) out.push(low.slice(from));
  return out;
}

/** `nameWords` by its definition, for any text (lower-casing may turn a non-ASCII letter into ASCII: K, İ). */
export function nameWordsByRules(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const STRONG_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'pw',
  'pass',
  'pword',
  'secret',
  'secrets',
  'token',
  'credential',
  'credentials',
  'creds',
  'cred',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'authtoken',
  'bearer',
]);
const WEAK_WORDS = new Set(['key', 'auth', 'authorization', 'oauth', 'pat', 'signature', 'sig', 'salt', 'cookie']);
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'access',
  'secret',
  'signing',
  'encryption',
  'master',
  'license',
  'client',
  'app',
  'service',
  'account',
  'deploy',
  'admin',
  'root',
]);
/** A name ending in one of these describes a credential (where it lives, how long it lasts), it does not hold one. */
const DESCRIBING_WORDS = new Set(
  'url uri endpoint host file path dir name names type length len count ttl expiry expires expiration expired env var field policy hint label prompt regex pattern format mode rotation reset required enabled enable disabled flag size limit timeout version id ids allow allowlist ignore prefix suffix scope scopes kind provider method strategy store manager helper command cmd hash schema spec usage budget max min tokens refresh rotated location source ref header_name'.split(
    ' ',
  ),
);
const PUBLIC_WORDS = new Set(['public', 'pub', 'publishable', 'csrf', 'xsrf', 'authenticity', 'nonce', 'jsonwebtoken']);
const NOT_CREDENTIAL =
  /tokeni[sz]|secretar|passage|passeng|passiv|bypass|compass|surpass|trespass|passthrough|keyboard|keyword|keynote|keyframe|monkey|turkey|donkey|hockey|jockey|whiskey|author(?!i[sz]ation)|authentic/;

const STRONG_PART = /password|passwd|secret|token/;

export type NameStrength = 'strong' | 'weak' | null;

/** How strongly a field name says it holds a credential, and the word that says so (`words`: its `nameWords`). */
export function credentialName(name: string, words = nameWords(name)): { strength: NameStrength; word: string } {
  if (name === 'PWD' || name === 'OLDPWD') return { strength: null, word: '' }; // the working directory
  // A public key or token is published on purpose; a CSRF token or nonce guards one request.
  if (words.some((w) => PUBLIC_WORDS.has(w))) return { strength: null, word: '' };
  if (!words.length || DESCRIBING_WORDS.has(words[words.length - 1])) return { strength: null, word: '' };
  let weak = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (NOT_CREDENTIAL.test(w)) continue;
    if (STRONG_WORDS.has(w)) return { strength: 'strong', word: label(w) };
    const strong = STRONG_PART.exec(w);
    if (strong) return { strength: 'strong', word: label(strong[0]) };
    if (w === 'key' && i > 0 && KEY_QUALIFIERS.has(words[i - 1]))
      return { strength: 'strong', word: words[i - 1] === 'api' ? 'API key' : `${words[i - 1]} key` };
    if (!weak && WEAK_WORDS.has(w)) weak = w;
  }
  return weak ? { strength: 'weak', word: label(weak) } : { strength: null, word: '' };
}

function label(w: string): string {
  if (/^(?:passwd|pwd|pw|pass|pword|passphrase)$/.test(w)) return 'password';
  if (/^(?:credentials?|creds?)$/.test(w)) return 'credential';
  if (w === 'apikey') return 'API key';
  if (w === 'privatekey') return 'private key';
  if (w === 'secretkey' || w === 'secrets') return 'secret';
  if (w === 'accesskey') return 'access key';
  if (w === 'authtoken' || w === 'bearer') return 'token';
  if (w === 'authorization' || w === 'oauth') return 'auth';
  return w;
}
