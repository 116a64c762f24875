import { describe, expect, it } from 'vitest';
import { fold, matchFields, queryTerms, searchableFields } from '../../src/core/search.js';

describe('search core', () => {
  it('folds case, compatibility forms and ё', () => {
    expect(fold('ЁЛКА Ｃｓｖ')).toBe('елка csv');
  });

  it('splits queries into stemmed words and CJK runs with bigrams', () => {
    expect(queryTerms('Parsers парсера')).toEqual([{ text: 'parser' }, { text: 'парсер' }]);
    expect(queryTerms('解析器')).toEqual([{ text: '解析器', bigrams: ['解析', '析器'] }]);
    expect(queryTerms('csv解析')).toEqual([{ text: 'csv' }, { text: '解析' }]);
    expect(queryTerms('  "quoted", (words)! ')).toEqual([{ text: 'quoted' }, { text: 'word' }]);
    expect(queryTerms('!!! ...')).toEqual([]);
  });

  it('indexes every string: nested, lists, unknown fields; not ids and hashes', () => {
    const f = searchableFields({
      summary: 's',
      cursor: { next_step: 'n' },
      guards: ['g0', 'g1'],
      open_tracks: [{ name: 'a', readiness: '', entry_point: 'e' }],
      custom: { deep: ['x'] },
      head: 'abc',
      content_hashes: { a: 'b' },
    });
    expect(f).toEqual([
      ['summary', 's'],
      ['cursor.next_step', 'n'],
      ['guards[0]', 'g0'],
      ['guards[1]', 'g1'],
      ['open_tracks[0].name', 'a'],
      ['open_tracks[0].entry_point', 'e'],
      ['custom.deep[0]', 'x'],
    ]);
  });

  it('needs every term, names the best field, scores the summary above a commit subject', () => {
    const fields = searchableFields({ summary: 'The parser handles quoting', recent_commits: ['abc: parser quoting fix'] });
    const m = matchFields(fields, queryTerms('parser quoting'), fold('parser quoting'));
    expect(m?.field).toBe('summary');
    expect(matchFields(fields, queryTerms('parser nowhere'))).toBeNull();
    const zh = searchableFields({ summary: '修复了解析器的引号处理' });
    expect(matchFields(zh, queryTerms('解析器'))?.field).toBe('summary');
    expect(matchFields(zh, queryTerms('解析器处理'))).toBeNull();
  });
});
