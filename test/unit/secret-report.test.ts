import { describe, expect, it } from 'vitest';
import { scanFields } from '../../src/core/secret-fields.js';
import { describeSecrets, inputLines, jsonFieldLines } from '../../src/core/secret-report.js';
import { FakeSecrets } from '../helpers/fake-secrets.js';

const f = new FakeSecrets(12);

describe('the refusal', () => {
  it('names every hit with field, line and kind, masks each, and points to handoff.secrets.allow', () => {
    const g = f.githubClassic();
    const pw = f.password();
    const hits = scanFields({ summary: `use ${g}`, cursor: { next_step: `DB_PASSWORD=${pw}` } });
    const r = describeSecrets(hits, [3, 7], 'stdin');
    expect(r.message).toBe(
      "secret found in summary (stdin line 3): GitHub token ghp_********; also in cursor.next_step (stdin line 7): password assignment ********; nothing was written; if one is a false positive, allow it with: git config --add handoff.secrets.allow '<regex>'",
    );
    expect(r.message).not.toContain(pw.slice(0, 2));
    expect(r.message).not.toContain(g.slice(4, 8));
    expect(r.data).toMatchObject({ field: 'summary', line: 3, kind: 'GitHub token', count: 2 });
    expect(r.data.hits.map((h) => [h.field, h.line, h.family])).toEqual([
      ['summary', 3, 'GitHub'],
      ['cursor.next_step', 7, 'generic'],
    ]);
  });

  it('lists ten hits one by one and counts the rest', () => {
    const hits = scanFields({ guards: Array.from({ length: 13 }, () => f.awsAccessKey()) });
    const r = describeSecrets(
      hits,
      hits.map(() => 1),
      null,
    );
    expect(r.message.match(/AWS access key/g)).toHaveLength(10);
    expect(r.message).toContain('and 3 more');
    expect(r.data.count).toBe(13);
  });
});

describe('the input line of a hit', () => {
  it('is right for JSON input, escapes and all', () => {
    const pw = f.password();
    const g = f.githubClassic();
    const doc = {
      summary: 'ok "quoted" \\ path/with/slashes',
      cursor: { next_step: 'first line\nsecond line', pending_questions: ['fine', `notes: "password=${pw}"`] },
      guards: [`token ${g}`],
    };
    const text = JSON.stringify(doc, null, 2);
    const hits = scanFields(doc);
    expect(hits.map((h) => h.field)).toEqual(['cursor.pending_questions[1]', 'guards[0]']);
    const lines = inputLines(text, hits);
    const raw = text.split('\n');
    expect(raw[lines[0] - 1]).toContain(pw);
    expect(raw[lines[1] - 1]).toContain(g);
    expect(lines[0]).toBe(7);
  });

  it('is right for YAML input, block scalars included', () => {
    const g = f.githubClassic();
    const text = `summary: |\n  line one\n  line two uses ${g}\nguards:\n  - "quoted ${f.awsAccessKey()}"\n`;
    const hits = scanFields({ summary: `line one\nline two uses ${g}\n`, guards: [text.split('"')[1]] });
    expect(inputLines(text, hits)).toEqual([3, 5]);
  });

  it('takes the n-th occurrence for the n-th hit of a repeated value', () => {
    const g = f.githubClassic();
    const text = `summary: ${g}\nguards:\n  - ${g}\n`;
    expect(inputLines(text, scanFields({ summary: g, guards: [g] }))).toEqual([1, 3]);
  });

  it('maps JSON field paths the way scanFields names them', () => {
    const m = jsonFieldLines('{\n "a": {"b": [1, "x",\n  {"c": "y"}]},\n "d": "z"\n}')!;
    expect([m.get('a.b[1]'), m.get('a.b[2].c'), m.get('d')]).toEqual([2, 3, 4]);
    expect(jsonFieldLines('{"a": ')).toBeNull();
  });
});
