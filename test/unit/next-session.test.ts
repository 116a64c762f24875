import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { renderNextSession, parseNextSession, looksLikeNextSession, EMPTY_MARK } from '../../src/core/next-session.js';
import type { Handoff } from '../../src/core/schema.js';

const full: Handoff = {
  session_id: 's-42',
  status: 'paused',
  summary: 'Parser done; the CLI is next.\nKey decision: util.parseArgs, not yargs.',
  cursor: { next_step: 'wire the CLI' },
  open_tracks: [
    { name: 'parser', readiness: 'ready', entry_point: 'src/parse.ts' },
    { name: 'pipes | bars', readiness: '', entry_point: '`a\\b`' },
  ],
  ask_user: ['publish to npm?'],
  guards: ['no force push', 'do not touch refs/notes by hand'],
  memory_updates: [],
  recent_commits: ['abc1234: feat: parser'],
};

describe('renderNextSession', () => {
  it('writes the convention: front matter, title, the sections, (none this round) for empty ones', () => {
    const md = renderNextSession(full, '2026-01-01T00:00:00Z');
    expect(md).toBe(
      [
        '---',
        '_last_updated_: "2026-01-01T00:00:00Z"',
        'session_id: s-42',
        'status: paused',
        '---',
        '',
        '# Next session handoff',
        '',
        'Parser done; the CLI is next.',
        'Key decision: util.parseArgs, not yargs.',
        '',
        '## Next step',
        '',
        'wire the CLI',
        '',
        '## Recent commits',
        '',
        '- abc1234: feat: parser',
        '',
        '## Open tracks',
        '',
        '| Track | Readiness | Entry point |',
        '|---|---|---|',
        '| parser | ready | src/parse.ts |',
        '| pipes \\| bars |  | `a\\\\b` |',
        '',
        '## Ask the user',
        '',
        '- publish to npm?',
        '',
        "## Don't do",
        '',
        '- no force push',
        '- do not touch refs/notes by hand',
        '',
        '## Memory updates',
        '',
        EMPTY_MARK,
        '',
      ].join('\n'),
    );
  });
});

describe('parseNextSession', () => {
  it('reads back what it rendered (recent commits are history, filled again at write)', () => {
    const parsed = parseNextSession(renderNextSession(full, '2026-01-01T00:00:00Z'));
    const { recent_commits, ...rest } = full;
    expect(parsed.handoff).toEqual(rest);
    expect(parsed.lastUpdated).toBe('2026-01-01T00:00:00Z');
    expect(parsed.unknownSections).toEqual([]);
  });

  it('reads the Russian headings of the source convention, table columns by position', () => {
    const md = [
      '---',
      '_last_updated_: 2025-05-24',
      'session_id: "2025-05-24 вечер"',
      '---',
      '# Next session handoff',
      '',
      '## Recent commits',
      '- a1b2c3d: feat: парсер',
      '',
      '## Open треки',
      '| Трек | Готовность | Entry-point |',
      '|---|---|---|',
      '| парсер | 80% | `src/parse.ts` |',
      '| CLI | начат | src/cli.ts |',
      '',
      "## Спроси user'а",
      '- публикуем в npm?',
      '',
      '## Не делать (preemptive guards)',
      '- не пушить с --force',
      '  (даже в свою ветку)',
      '',
      '## Memory updates за сессию',
      '(нет на этом раунде)',
    ].join('\n');
    expect(looksLikeNextSession(md)).toBe(true);
    const p = parseNextSession(md);
    expect(p.handoff).toEqual({
      session_id: '2025-05-24 вечер',
      open_tracks: [
        { name: 'парсер', readiness: '80%', entry_point: '`src/parse.ts`' },
        { name: 'CLI', readiness: 'начат', entry_point: 'src/cli.ts' },
      ],
      ask_user: ['публикуем в npm?'],
      guards: ['не пушить с --force\n(даже в свою ветку)'],
      memory_updates: [],
    });
  });

  it('keeps an unknown section in the summary instead of dropping it', () => {
    const p = parseNextSession('# Next session handoff\n\nIntro.\n\n## Риски\n- миграция\n\n## Ask the user\n- ok?\n');
    expect(p.unknownSections).toEqual(['Риски']);
    expect(p.handoff.summary).toBe('Intro.\n\n## Риски\n- миграция');
    expect(p.handoff.ask_user).toEqual(['ok?']);
  });

  it('tells the convention apart from YAML and JSON', () => {
    expect(looksLikeNextSession('# a YAML comment\nsummary: x\n')).toBe(false);
    expect(looksLikeNextSession('{"summary":"x"}')).toBe(false);
    expect(looksLikeNextSession('## Ask the user\n- x\n')).toBe(true);
  });

  it('writes its front matter with the one YAML scalar writer: js-yaml reads back every string as written (property)', () => {
    const tricky = fc.constantFrom(
      '2026-01-01',
      '2026-01-01T00:00:00Z',
      'yes',
      'No',
      'on',
      'null',
      '~',
      '0x1f',
      '1e3',
      '.5',
      '-',
      'a: b',
      'x #c',
      "it's",
      '"q"',
      '  pad',
      'tab\t',
      'é',
      '\\',
      '*a',
      '&b',
      '!t',
      '%p',
      '@x',
      '`t`',
      '[a]',
      '{a}',
      '|',
      '>',
    );
    const s = fc.oneof(tricky, fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 6 })).map((x) => x.replace(/[\r\n]/g, ' '));
    fc.assert(
      fc.property(s, s, s, (session, item, date) => {
        const md = renderNextSession({ session_id: session, work_item: item, status: 'active' } as Handoff, date);
        const front = md.split('\n---\n')[0].replace(/^---\n/, '');
        expect(load(front)).toEqual({ _last_updated_: date, session_id: session, status: 'active', ...(item ? { work_item: item } : {}) });
        expect(parseNextSession(md).lastUpdated).toBe(date);
      }),
      { numRuns: 400 },
    );
  });

  it('round-trips the fields it carries (property)', () => {
    const line = fc
      .string({ minLength: 1, maxLength: 20 })
      .map((s) => s.replace(/[\r\n]/g, ' ').trim())
      .filter((s) => s !== '' && !/^\(.*\)$/.test(s));
    const text = fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n'));
    const cellText = line.map((s) => s.replace(/<br>/g, ''));
    const handoff = fc.record({
      session_id: line,
      status: fc.constantFrom('active', 'paused', 'done'),
      summary: text,
      cursor: fc.record({ next_step: text }),
      open_tracks: fc.array(fc.record({ name: cellText, readiness: cellText, entry_point: cellText }), { maxLength: 3 }),
      ask_user: fc.array(text, { maxLength: 3 }),
      guards: fc.array(text, { maxLength: 3 }),
      memory_updates: fc.array(text, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(handoff, (h) => {
        expect(parseNextSession(renderNextSession(h as Handoff, '2026-01-01T00:00:00Z')).handoff).toEqual(h);
      }),
      { numRuns: 300 },
    );
  });
});
