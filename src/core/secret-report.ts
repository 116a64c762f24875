/**
 * The refusal for secrets: every hit named by field, input line and family, the
 * value masked, and the way out (`handoff.secrets.allow`, or `purge` for what is already
 * stored). Also finds the input line of a hit for YAML and JSON input alike. Pure.
 */
import { mask, type FieldSecret } from './secret-fields.js';

/** How many hits a refusal lists one by one. */
const LISTED = 10;

export interface SecretRefusal {
  message: string;
  data: {
    field: string;
    line: number;
    kind: string;
    count: number;
    hits: { field: string; line: number; kind: string; family: string; rule: string; masked: string }[];
  };
}

/**
 * One line naming every hit: `secret found in summary (stdin line 6): GitHub token
 * ghp_********; also in ...; nothing was written; ...`. `lines[i]` is hit i's line in the
 * input, `source` names the input ("stdin", a file) or null for flags.
 */
export function describeSecrets(hits: FieldSecret[], lines: number[], source: string | null, outcome = 'nothing was written'): SecretRefusal {
  const where = (i: number) => (source ? `${source} line ${lines[i]}` : `line ${lines[i]}`);
  const one = (h: FieldSecret, i: number) => `${h.field} (${where(i)}): ${h.kind} ${mask(h.value, h.keep)}`;
  const listed = hits.slice(0, LISTED).map((h, i) => (i === 0 ? `secret found in ${one(h, i)}` : `also in ${one(h, i)}`));
  if (hits.length > LISTED) listed.push(`and ${hits.length - LISTED} more`);
  const message = `${listed.join('; ')}; ${outcome}; if one is a false positive, allow it with: git config --add handoff.secrets.allow '<regex>'`;
  return {
    message,
    data: {
      field: hits[0].field,
      line: lines[0],
      kind: hits[0].kind,
      count: hits.length,
      hits: hits.map((h, i) => ({ field: h.field, line: lines[i], kind: h.kind, family: h.family, rule: h.rule, masked: mask(h.value, h.keep) })),
    },
  };
}

/**
 * The line of each hit in the raw input. JSON input is walked with positions (its strings
 * sit on one line, escapes and all); otherwise the value is looked up as written, as YAML
 * and JSON would escape it, the n-th hit of a repeated value taking its n-th occurrence.
 * Falls back to the line within the field.
 */
export function inputLines(input: string | null, hits: FieldSecret[]): number[] {
  if (!input) return hits.map((h) => h.line);
  const json = /^\s*[[{]/.test(input) ? jsonFieldLines(input) : null;
  const seen = new Map<string, number>();
  return hits.map((h) => {
    const fromJson = json?.get(h.field);
    if (fromJson !== undefined) return fromJson;
    const nth = seen.get(h.value) ?? 0;
    seen.set(h.value, nth + 1);
    // A value spanning lines (a key block) is looked up by its first line: YAML indents the rest.
    const first = h.value.split('\n')[0];
    for (const form of [first, JSON.stringify(first).slice(1, -1), first.replace(/'/g, "''")]) {
      let at = -1;
      for (let i = 0; i <= nth; i++) {
        at = input.indexOf(form, at + 1);
        if (at < 0) break;
      }
      if (at >= 0) return lineOf(input, at);
    }
    return h.line;
  });
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Field path (as `scanFields` names it: `a.b[2].c`) -> line of its string in JSON text.
 * Null on text that is not JSON after all.
 */
export function jsonFieldLines(text: string): Map<string, number> | null {
  const out = new Map<string, number>();
  let i = 0;
  let line = 1;
  const ws = () => {
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const str = (): string => {
    let v = '';
    i++;
    for (; i < text.length && text[i] !== '"'; i++) {
      if (text[i] === '\\') {
        const e = text[++i];
        if (e === 'u') {
          v += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
          i += 4;
        } else v += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
      } else v += text[i];
    }
    if (i >= text.length) throw new Error('unterminated string');
    i++;
    return v;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '"') {
      out.set(path || '(value)', line);
      str();
    } else if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') throw new Error('expected a key');
        const keyLine = line;
        const k = str();
        const p = path ? `${path}.${k}` : k;
        out.set(p, keyLine);
        ws();
        if (text[i++] !== ':') throw new Error('expected :');
        value(p);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else throw new Error('expected , or }');
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else throw new Error('expected , or ]');
      }
    } else {
      const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 40));
      if (!m) throw new Error('unexpected token');
      i += m[0].length;
    }
  };
  try {
    value('');
    return out;
  } catch {
    return null;
  }
}
