import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  validateHandoffDoc,
  handoffDocHash,
  replaceSeed,
  emptySeed,
  locateSeed,
  renderTemplate,
  citedReceipts,
  sectionsPresent,
  SECTIONS,
  type DocFacts,
  type Lang,
} from '../../src/core/handoff-doc.js';
import { remoteName, renderSeed, type SeedInput } from '../../src/core/seed-prompt.js';
import { commentCarries, receiptComment, markdownSection, parseDeliveryConfig, fieldKey } from '../../src/providers/github.js';
import type { Receipt } from '../../src/core/receipt.js';

/** The text currently between the markers ('' when empty or unmarked). */
function currentSeed(text: string): string {
  const lines = text.split('\n');
  const span = locateSeed(lines);
  if ('problem' in span) return '';
  return lines.slice(span.begin + 1, span.end).join('\n');
}

const facts = (over: Partial<DocFacts> = {}): DocFacts => ({
  docDir: 'docs',
  rootFolders: new Set(['src', 'docs']),
  pathExists: (p) => ['src/a.ts', 'src', 'docs/notes.md', 'README.md'].includes(p),
  receiptExists: (id) => id === 'claim-1-aaaaaaaaaaaa',
  ...over,
});

function doc(sections: Record<string, string> = {}, seed = '<!-- SEED:BEGIN -->\n<!-- SEED:END -->'): string {
  const body = {
    Goal: 'Parse the config.',
    Done: 'The lexer, receipt: claim-1-aaaaaaaaaaaa',
    'Where it stopped': 'In `src/a.ts`.',
    'Next steps': '1. the parser',
    'Open questions': 'none',
    Guards: 'no force push',
    References: '[notes](notes.md), [readme](../README.md), `origin/main` is a branch',
    ...sections,
  };
  return `# Handoff 1\n\n${Object.entries(body)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `## ${k}\n\n${v}\n`)
    .join('\n')}\n## SEED\n\n${seed}\n`;
}

describe('handoff document validation', () => {
  it('accepts a complete document', () => {
    expect(validateHandoffDoc(doc(), facts())).toEqual([]);
  });

  it('lists every problem at once, each with its line', () => {
    const text = doc({
      Guards: '',
      Done: 'the lexer, receipt: claim-9-nothere, 回执: handoff-1-000000000000',
      'Next steps': '{{the next steps}}',
      References: '[gone](../src/missing.ts) and `src/also-missing.ts:12` and <https://example.com> and [site](https://x.y/z)',
    });
    const problems = validateHandoffDoc(text, facts());
    expect(problems.map((p) => p.code).sort()).toEqual([
      'missing-path',
      'missing-path',
      'missing-section',
      'placeholder',
      'unknown-receipt',
      'unknown-receipt',
    ]);
    expect(problems.find((p) => p.code === 'missing-section')!.message).toBe('missing section Guards (约束 / Не делать)');
    expect(problems.find((p) => p.code === 'placeholder')).toMatchObject({ line: expect.any(Number), message: expect.stringContaining('{{the next steps}}') });
    expect(problems.filter((p) => p.code === 'missing-path').map((p) => p.message)).toEqual([
      'referenced path ../src/missing.ts does not exist',
      'referenced path src/also-missing.ts:12 does not exist',
    ]);
    expect(problems.filter((p) => p.code === 'unknown-receipt').map((p) => p.message)).toEqual([
      'receipt claim-9-nothere does not exist',
      'receipt handoff-1-000000000000 does not exist',
    ]);
  });

  it.each([
    ['no markers', doc({}, ''), /SEED markers are missing/],
    ['no END', doc({}, '<!-- SEED:BEGIN -->'), /SEED:END --> is missing/],
    ['END before BEGIN', doc({}, '<!-- SEED:END -->\n<!-- SEED:BEGIN -->'), /comes before/],
    ['two BEGINs', doc({}, '<!-- SEED:BEGIN -->\n<!-- SEED:BEGIN -->\n<!-- SEED:END -->'), /appears 2 times/],
  ])('refuses SEED markers: %s', (_, text, msg) => {
    const problems = validateHandoffDoc(text, facts());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'seed-markers', message: expect.stringMatching(msg) });
  });

  it('ignores placeholders, paths and receipts inside SEED, and paths inside code fences', () => {
    const text = doc(
      { 'Where it stopped': '```\ncat src/nothere.ts `src/nothere.ts`\n```' },
      '<!-- SEED:BEGIN -->\n{{x}} receipt: nope `src/gone.ts`\n<!-- SEED:END -->',
    );
    expect(validateHandoffDoc(text, facts())).toEqual([]);
  });

  it('a placeholder inside a code fence is still a placeholder', () => {
    const problems = validateHandoffDoc(doc({ Done: '```\n{{fill me}}\n```' }), facts());
    expect(problems.map((p) => p.code)).toEqual(['placeholder']);
  });

  it('takes headings in any of the three languages, any level, with decorations', () => {
    const names = (lang: Lang) => SECTIONS.map((s) => s.names[lang]);
    const zh = names('zh')
      .map((n) => `## ${n}\n\nx\n`)
      .join('\n');
    const ru = names('ru')
      .map((n, i) => `### ${i + 1}. ${n}:\n\nx\n`)
      .join('\n');
    const mixed = `## Goal (what)\n\n## 已完成\n\n## Где остановились\n\n## NEXT STEPS\n\n## 待决问题\n\n## Не делать\n\n## References ##\n`;
    for (const t of [zh, ru, mixed]) expect(sectionsPresent(t).size).toBe(7);
  });

  it('a backticked token is a path only when its first segment is a folder of the repository', () => {
    const text = doc({ References: '`origin/main`, `feature/x`, `src/a.ts#L3`, `./src/a.ts`, `src/**/*.ts`, `http://a/b`' });
    expect(validateHandoffDoc(text, facts())).toEqual([]);
  });

  it('collects cited receipts once each, in order', () => {
    expect(citedReceipts('receipt: a-1\nReceipt: `b-2`.\n回执：c-3\nreceipt: a-1').map((c) => c.id)).toEqual(['a-1', 'b-2', 'c-3']);
  });
});

describe('the SEED section and the document hash', () => {
  const text = doc();
  it('rewriting SEED never changes the hash', () => {
    const once = replaceSeed(text, 'line one\nline two\n');
    const twice = replaceSeed(once, 'other\n');
    expect(once).toContain('```text\nline one\nline two\n```');
    expect(currentSeed(twice)).toBe('```text\nother\n```');
    expect(handoffDocHash(once)).toBe(handoffDocHash(text));
    expect(handoffDocHash(twice)).toBe(handoffDocHash(text));
    expect(emptySeed(once)).toBe(text);
  });
  it('any edit outside SEED changes it', () => {
    expect(handoffDocHash(text.replace('Parse', 'parse'))).not.toBe(handoffDocHash(text));
  });
  it('is the git blob id of the document with SEED emptied', () => {
    // `printf 'a\n<!-- SEED:BEGIN -->\n<!-- SEED:END -->\n' | git hash-object --stdin`
    expect(handoffDocHash('a\n<!-- SEED:BEGIN -->\nxyz\n<!-- SEED:END -->\n')).toBe('faa367f20fa5542357dcc20ea68d99fbfb2b9349');
  });
  it('uses a longer fence when the seed holds one', () => {
    expect(replaceSeed(text, 'a\n```\nb')).toContain('````text\na\n```\nb\n````');
  });
});

describe('the shipped templates', () => {
  it.each(['en', 'zh', 'ru'] as Lang[])('%s has the seven sections, the markers, and a placeholder for every value', (lang) => {
    const t = readFileSync(join(import.meta.dirname, '../../templates', `handoff.${lang}.md`), 'utf8');
    const rendered = renderTemplate(t, { n: '5', title: 'T', workItem: 'local:#5' });
    expect(sectionsPresent(rendered).size).toBe(7);
    const problems = validateHandoffDoc(rendered, facts());
    expect(problems.every((p) => p.code === 'placeholder')).toBe(true);
    expect(problems).toHaveLength(7);
    expect(rendered).not.toMatch(/\{\{(n|title|workItem)\}\}/);
  });
});

describe('the seed prompt', () => {
  const receipt = {
    id: 'handoff-3-0123456789ab',
    kind: 'handoff',
    workItem: 'local:#3',
    fromStatus: 'in-progress',
    toStatus: 'ready-for-review',
    commit: 'c'.repeat(40),
    handoffDocHash: 'd'.repeat(40),
    receiptIds: ['claim-3-aaaaaaaaaaaa'],
    at: '2026-01-01T00:00:00Z',
  } as Receipt;
  const input: SeedInput = {
    lang: 'en',
    workItem: 'local:#3',
    state: 'ready-for-review',
    title: 'Parse the config',
    acceptance: '- tests pass\n- documented',
    handoffDoc: 'docs/HANDOFF-3.md',
    branch: 'main',
    head: 'e'.repeat(40),
    prefix: { project: 'widgets', repository: 'github.com/acme/widgets', rules: ['AGENTS.md'], report: 'report receipt ids' },
    constraints: ['no force push'],
    receipts: [receipt],
    authorization: null,
  };

  it('has the fixed shape: prefix, goal, acceptance, evidence, authorization, constraints', () => {
    expect(renderSeed(input)).toBe(
      [
        '# Session seed: local:#3',
        '',
        'Project: widgets',
        'Repository: github.com/acme/widgets',
        'Rule files (read before acting): AGENTS.md',
        'Report protocol: report receipt ids',
        '',
        'Goal: Parse the config',
        'Acceptance criteria:',
        '  - tests pass',
        '  - documented',
        '',
        'State: ready-for-review',
        'Handoff document (read it first): docs/HANDOFF-3.md',
        'Branch: main',
        `Head: ${'e'.repeat(40)}`,
        '',
        'Evidence (latest receipts, newest first):',
        `- handoff-3-0123456789ab: handoff, in-progress -> ready-for-review, commit cccccccccccc, doc dddddddddddd, cites claim-3-aaaaaaaaaaaa`,
        '',
        'Delivery authorization: (none)',
        '',
        'Constraints:',
        '- no force push',
        '',
      ].join('\n'),
    );
  });

  it('never prints a receipt time', () => {
    expect(renderSeed(input)).not.toContain('2026');
  });

  it('restores an authorization, and says when it is void', () => {
    const auth = {
      id: 'authorize-3-x',
      kind: 'authorize',
      scope: 'merge PR #4 after green checks',
      retries: 3,
      commit: 'f'.repeat(40),
      pr: {
        number: 4,
        url: 'https://github.com/acme/widgets/pull/4',
        headRefOid: 'f'.repeat(40),
        baseRefName: 'main',
        checks: [{ name: 'ci', status: 'COMPLETED', conclusion: 'SUCCESS' }],
      },
    } as Receipt;
    const valid = renderSeed({ ...input, authorization: { receipt: auth, valid: true, reason: null, retriesLeft: 2 } });
    expect(valid).toContain('Delivery authorization: authorize-3-x\n  Scope: merge PR #4 after green checks\n  Retries left: 2 of 3\n');
    expect(valid).toContain('  Checks: ci=success\n  Holds: a session switch');
    const void_ = renderSeed({ ...input, authorization: { receipt: auth, valid: false, reason: 'the branch changed', retriesLeft: 2 } });
    expect(void_).toContain('Delivery authorization: authorize-3-x (VOID: the branch changed)');
    expect(void_).toContain('Ask the user for a new authorization before delivering.');
  });

  it.each(['zh', 'ru'] as Lang[])('labels in %s', (lang) => {
    const s = renderSeed({ ...input, lang });
    expect(s).toContain(lang === 'zh' ? '目标: Parse the config' : 'Цель: Parse the config');
  });
});

describe('the remote as the seed names it', () => {
  it.each([
    ['https://github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['https://x-access-token:ghp_secret@GitHub.com/acme/widgets/', 'github.com/acme/widgets'],
    ['ssh://git@github.com:22/acme/widgets.git', 'github.com/acme/widgets'],
    ['git@github.com:acme/widgets.git', 'github.com/acme/widgets'],
    ['user:pw@gitlab.example.com:group/sub/widgets', 'gitlab.example.com/group/sub/widgets'],
    ['/srv/git/widgets.git', '/srv/git/widgets'],
    ['../widgets', '../widgets'],
    ['file:///srv/git/widgets.git', 'file:///srv/git/widgets'],
    ['C:/repos/widgets.git', 'C:/repos/widgets'],
    ['https://tok@host:bad/x.git', 'https://host:bad/x'],
  ])('%s -> %s', (url, want) => {
    expect(remoteName(url)).toBe(want);
  });
});

describe('github provider helpers', () => {
  const r = {
    id: 'handoff-12-0123456789ab',
    kind: 'handoff',
    workItem: 'github:acme/widgets#12',
    fromStatus: 'in-progress',
    toStatus: 'in-progress',
    commit: 'c'.repeat(40),
    receiptIds: [],
  } as unknown as Receipt;
  it('a receipt comment carries its id and status', () => {
    const body = receiptComment(r);
    expect(commentCarries(body, r)).toBe(true);
    expect(commentCarries(body, { ...r, toStatus: 'ready-for-review' })).toBe(false);
    expect(commentCarries(body, { ...r, id: 'handoff-12-ffffffffffff' })).toBe(false);
    expect(commentCarries('just text handoff-12-0123456789ab', r)).toBe(false);
  });
  it('finds the Acceptance section of an issue body', () => {
    const body = '## Why\n\nbecause\n\n## Acceptance\n\n- one\n- two\n\n### detail\n\nkept\n\n## Notes\n\nnot this';
    expect(markdownSection(body, ['Acceptance'])).toBe('- one\n- two\n\n### detail\n\nkept');
    expect(markdownSection(body, ['Criteria'])).toBeNull();
  });
  it('reads the delivery config', () => {
    expect(parseDeliveryConfig('{"repository":"acme/widgets","project":3,"statusField":"Stage"}')).toEqual({
      repository: 'acme/widgets',
      project: 3,
      projectOwner: null,
      statusField: 'Stage',
    });
    expect(parseDeliveryConfig('{"github":{"project":"4","owner":"acme-org"}}')).toMatchObject({ project: 4, projectOwner: 'acme-org' });
    expect(parseDeliveryConfig('{"project":"x"}')).toMatchObject({ problem: expect.stringContaining('project number') });
  });
  it("keys field values the way gh's formatter does", () => {
    expect(fieldKey('Handoff doc')).toBe('handoff doc');
    expect(fieldKey('Status')).toBe('status');
  });
});
