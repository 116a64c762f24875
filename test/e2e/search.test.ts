/**
 * `git handoff search`: every version on every branch, English, Russian and
 * Chinese, invalid notes in history, a large history, and an index that never outlives a
 * rewritten history.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { searchHandoffs, type SearchRequest } from '../../src/app/search.js';

const hits = (r: { json: any }) => r.json.results.map((h: any) => [h.version, h.field]);

/** The same search in this process (the language matrix needs many; the CLI is tested below). */
async function find(repo: TestRepo, query: string, opts: Omit<SearchRequest, 'query'> = {}): Promise<string[][]> {
  const r = await Repo.discover(repo.dir);
  try {
    return (await searchHandoffs(r, { query, ...opts })).hits.map((h) => [h.version, h.field]);
  } finally {
    r.close();
  }
}

function nativeNote(repo: TestRepo, text: string): string {
  const file = join(tempDir(), 'note');
  writeFileSync(file, text);
  repo.git('notes', '--ref=handoff', 'add', '-f', '-F', file, 'HEAD');
  return repo.notesRef()!;
}

describe('search over every version on every branch, in three languages', () => {
  let repo: TestRepo;
  const v: Record<string, string> = {};
  const write = (name: string, input: string, args: string[] = []) => {
    const r = handoff(repo, ['write', '--json', ...args], { input });
    expect(r.code, r.stderr).toBe(0);
    v[name] = r.json.version;
  };
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: csv parser', { 'a.txt': '1\n' });
    write('en', 'summary: the CSV parser handles quoting now\nguards: [do not touch the tokenizer]\nreviewer_notes: ask Ada about escapes\n');
    repo.commit('feat: russian', { 'a.txt': '2\n' });
    write(
      'ru',
      'summary: Исправили ошибку в парсере CSV, ещё не готово\nopen_tracks:\n  - name: экранирование\n    readiness: обсуждаем\n    entry_point: src/parser.ts\n',
    );
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('feat: chinese', { 'b.txt': '3\n' });
    write('zh', 'summary: 修复了解析器的引号处理\ncursor:\n  next_step: 为CSV解析器写测试\n');
    repo.git('checkout', '-q', 'main');
  });

  it('finds English words in any field, names the field, and reports the JSON shape', async () => {
    const r = handoff(repo, ['search', 'quoting', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(r.json)).toEqual(['ok', 'query', 'order', 'searched', 'skipped_invalid', 'more', 'results']);
    expect(hits(r)).toEqual([[v.en, 'summary']]);
    expect(Object.keys(r.json.results[0])).toEqual(['version', 'target', 'date', 'branch', 'status', 'summary', 'field', 'snippet', 'score']);
    expect(await find(repo, 'TOKENIZER')).toEqual([[v.en, 'guards[0]']]);
    // an unknown field is searched too
    expect(await find(repo, 'escapes')).toEqual([[v.en, 'reviewer_notes']]);
    // every word must occur
    expect(await find(repo, 'quoting tokenizer')).toEqual([[v.en, 'summary']]);
    expect(await find(repo, 'quoting nowhere')).toEqual([]);
    // a field's name is not its text: counted beyond the limit or shown, it never matches
    const r2 = await Repo.discover(repo.dir);
    try {
      for (const q of ['reviewer_notes', 'cursor', 'next_step']) {
        for (const limit of [0, 20]) {
          const res = await searchHandoffs(r2, { query: q, limit });
          expect([res.hits.length, res.more], `${q} -n ${limit}`).toEqual([0, 0]);
        }
      }
      const counted = await searchHandoffs(r2, { query: 'csv', limit: 0 });
      expect([counted.hits.length, counted.more]).toEqual([0, 3]);
    } finally {
      r2.close();
    }
  });

  it('matches Russian words across inflections and ё/е', async () => {
    expect(await find(repo, 'парсер')).toEqual([[v.ru, 'summary']]);
    expect(await find(repo, 'парсера')).toEqual([[v.ru, 'summary']]);
    expect(await find(repo, 'ЕЩЕ')).toEqual([[v.ru, 'summary']]);
    expect(await find(repo, 'экранирования')).toEqual([[v.ru, 'open_tracks[0].name']]);
    expect(hits(handoff(repo, ['search', 'парсера', '--json']))).toEqual([[v.ru, 'summary']]);
  });

  it('matches Chinese without spaces: a word inside a sentence, and words apart', async () => {
    // on the feature branch, found from main: every branch is searched
    expect(hits(handoff(repo, ['search', '解析器', '--json']))).toEqual([[v.zh, 'summary']]);
    expect(await find(repo, '引号处理')).toEqual([[v.zh, 'summary']]);
    expect(await find(repo, '测试')).toEqual([[v.zh, 'cursor.next_step']]);
    expect(await find(repo, '解析器 引号')).toEqual([[v.zh, 'summary']]);
    // a phrase that is not in the text does not match by its scattered characters
    expect(await find(repo, '解析引号')).toEqual([]);
    // mixed scripts in one word
    expect(await find(repo, 'csv解析器')).toEqual([[v.zh, 'cursor.next_step']]);
  });

  it('orders newest first or by relevance, and filters by --branch, --since and -n', async () => {
    expect((await find(repo, 'csv')).map((h) => h[0])).toEqual([v.zh, v.ru, v.en]);
    const r = await Repo.discover(repo.dir);
    const rel = (await searchHandoffs(r, { query: 'csv', order: 'relevance' })).hits.map((h) => h.score);
    r.close();
    expect(rel).toEqual([...rel].sort((a, b) => b - a));
    expect(await find(repo, 'csv', { branch: 'feature' })).toEqual([[v.zh, 'cursor.next_step']]);
    const ruDate = handoff(repo, ['log', '--all', '--json']).json.versions.find((x: any) => x.version === v.ru).date;
    expect((await find(repo, 'csv', { since: ruDate })).map((h) => h[0])).toEqual([v.zh, v.ru]);
    const one = handoff(repo, ['search', 'csv', '-n', '1', '--branch', 'feature', '--since', ruDate, '--relevance', '--json']);
    expect(one.json.results).toHaveLength(1);
    expect(one.json.order).toBe('relevance');
    const human = handoff(repo, ['search', 'csv', '-n', '1']);
    expect(human.stdout).toMatch(new RegExp(`^${v.zh.slice(0, 12)} 2026-01-01 \\d\\d:\\d\\d:\\d\\d feature cursor.next_step: 为CSV解析器写测试\\n$`));
    expect(human.stderr).toBe('… 2 more versions match; use -n to see them\n');
  });

  it('refuses bad arguments with one line and exit 2', () => {
    for (const args of [['search'], ['search', 'x', '-n', 'many'], ['search', 'x', '--since', 'soon']]) {
      const r = handoff(repo, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('search -n counts the lines search prints', () => {
  it('a text carried by several versions is one line: -n 2 shows two texts, each with every version that carries it', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const ids: string[] = [];
    const write = (args: string[]) => {
      const r = handoff(repo, ['write', '--json', ...args]);
      expect(r.code, r.stderr).toBe(0);
      ids.push(r.json.version);
    };
    write(['--summary', 'quoting: first idea']);
    write(['--summary', 'quoting: the agreed design', '--next-step', 'one']);
    write(['--next-step', 'two']);
    write(['--next-step', 'three']);
    const human = handoff(repo, ['search', 'quoting', '-n', '2']);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^${ids[3].slice(0, 12)} .* summary: quoting: the agreed design \\(3 versions with this text; the oldest: ${ids[1].slice(0, 12)}\\)$`),
    );
    expect(lines[1]).toMatch(new RegExp(`^${ids[0].slice(0, 12)} .* summary: quoting: first idea$`));
    expect(human.stderr).toBe('');
    const one = handoff(repo, ['search', 'quoting', '-n', '1']);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(1);
    // newest first parses only what it shows: the versions after the first text are counted, not grouped
    expect(one.stderr).toBe('… 3 more versions match; use -n to see them\n');
    for (const order of [[], ['--relevance']]) {
      const j = handoff(repo, ['search', 'quoting', '-n', '1', '--json', ...order]).json;
      expect(new Set(j.results.map((h: any) => h.snippet))).toEqual(new Set(['quoting: the agreed design']));
      expect(j.results.length + j.more).toBe(4);
    }
  });
});

describe('search with invalid notes in history', () => {
  it('skips them with a count and still finds the valid ones', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    const good = handoff(repo, ['write', '--json', '--summary', 'the parser is fine'], {}).json.version;
    repo.commit('feat: two', { 'a.txt': '2\n' });
    nativeNote(repo, 'summary: [parser unclosed\n');
    repo.commit('feat: three', { 'a.txt': '3\n' });
    nativeNote(repo, 'status: 42\nsummary: parser with wrong types\n');
    const r = handoff(repo, ['search', 'parser', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.skipped_invalid).toBe(2);
    expect(hits(r)).toEqual([[good, 'summary']]);
    const human = handoff(repo, ['search', 'parser']);
    expect(human.stderr).toBe('warning: skipped 2 invalid notes\n');
  });
});

describe('the search index', () => {
  let repo: TestRepo;
  beforeAll(() => {
    repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    handoff(repo, ['write', '--summary', 'first direction: batching']);
  });

  it('keeps its cache, picks up new versions, and survives a cache cut short', () => {
    expect(hits(handoff(repo, ['search', 'batching', '--json']))).toHaveLength(1);
    const index = join(repo.gitDir(), 'handoff/search-index.jsonl');
    expect(existsSync(index)).toBe(true);
    repo.commit('feat: two', { 'a.txt': '2\n' });
    const w = handoff(repo, ['write', '--json', '--summary', 'a brand new direction: streaming']);
    let r = handoff(repo, ['search', 'direction', '--json']);
    expect(r.json.searched).toBe(2);
    expect(hits(r)[0]).toEqual([w.json.version, 'summary']);
    const text = readFileSync(index, 'utf8');
    writeFileSync(index, text.slice(0, text.length - 40));
    r = handoff(repo, ['search', 'streaming', '--json']);
    expect(hits(r)).toEqual([[w.json.version, 'summary']]);
    expect(r.json.searched).toBe(2);
  });

  it('forgets versions a rewritten history no longer has (what purge does)', () => {
    repo.commit('feat: three', { 'a.txt': '3\n' });
    const w = handoff(repo, ['write', '--json', '--summary', 'leaked words zebra-unique']);
    expect(hits(handoff(repo, ['search', 'zebra-unique', '--json']))).toEqual([[w.json.version, 'summary']]);
    repo.git('update-ref', 'refs/notes/handoff', `${w.json.version}^`);
    expect(handoff(repo, ['search', 'zebra-unique', '--json']).json.results).toEqual([]);
    expect(readFileSync(join(repo.gitDir(), 'handoff/search-index.jsonl'), 'utf8')).not.toContain('zebra-unique');
  });

  it('purge takes the purged text out of the cache at once, before any search', () => {
    repo.commit('feat: four', { 'a.txt': '4\n' });
    const w = handoff(repo, ['write', '--json', '--summary', 'oops: quagga-unique words']);
    repo.commit('feat: five', { 'a.txt': '5\n' });
    handoff(repo, ['write', '--summary', 'after the leak']);
    expect(hits(handoff(repo, ['search', 'quagga-unique', '--json']))).toEqual([[w.json.version, 'summary']]);
    const index = join(repo.gitDir(), 'handoff/search-index.jsonl');
    expect(readFileSync(index, 'utf8')).toContain('quagga-unique');
    const p = handoff(repo, ['purge', w.json.version]);
    expect(p.code, p.stderr).toBe(0);
    expect(existsSync(index) ? readFileSync(index, 'utf8') : '').not.toContain('quagga-unique');
    expect(handoff(repo, ['search', 'quagga-unique', '--json']).json.results).toEqual([]);
    expect(handoff(repo, ['search', 'leak', '--json']).json.results).toHaveLength(1);
  });
});

describe('search newest first is the one reader order, not the clock', () => {
  it('a patch written with a clock an hour behind its base is the first hit and its text line names it, as show does', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const at = (t: number) => ({ env: { GIT_AUTHOR_DATE: `@${t} +0000`, GIT_COMMITTER_DATE: `@${t} +0000` } });
    const base = handoff(repo, ['write', '--json'], { input: 'status: active\nsummary: whole one\n', ...at(1800003600) });
    expect(base.code, base.stderr).toBe(0);
    const patch = handoff(repo, ['write', '--json', '--add-note', 'later, by a slow clock'], at(1800000000));
    expect(patch.code, patch.stderr).toBe(0);
    const latest = handoff(repo, ['show', '--json']).json.version as string;
    expect(latest).toBe(patch.json.version);
    expect(handoff(repo, ['search', 'active', '--json']).json.results[0].version).toBe(latest);
    const line = handoff(repo, ['search', 'active']).stdout.split('\n')[0];
    expect(line.startsWith(latest.slice(0, 12)), line).toBe(true);
    expect(line).toContain(`the oldest: ${(base.json.version as string).slice(0, 12)}`);
  });
});
