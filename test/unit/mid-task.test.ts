import { describe, expect, it } from 'vitest';
import { activeTaskAt } from '../../src/core/mid-task.js';

const activeTask = (markdown: string) => activeTaskAt(markdown)?.task ?? null;

describe('activeTask: the 🔴 task of .tasks/STATUS.md', () => {
  it.each([
    ['- 🔴 `parser-quoting` — stopped at the escape table', 'parser-quoting', 'stopped at the escape table'],
    ['- 🔴 **parser-quoting**: stopped at the escape table', 'parser-quoting', 'stopped at the escape table'],
    ['* 🔴 parser-quoting - stopped at the escape table', 'parser-quoting', 'stopped at the escape table'],
    ['- [ ] 🔴 parser-quoting: escape table half done', 'parser-quoting', 'escape table half done'],
    ['| 🔴 | parser-quoting | stopped at the escape table |', 'parser-quoting', 'stopped at the escape table'],
    ['| parser-quoting | 🔴 | escape table | RFC 4180 |', 'parser-quoting', 'escape table; RFC 4180'],
    ['### 🔴 parser-quoting', 'parser-quoting', ''],
    ['- 🔴 парсер-кавычки — остановились на таблице экранирования', 'парсер-кавычки', 'остановились на таблице экранирования'],
    ['- 🔴 解析器引号：停在转义表', '解析器引号', '停在转义表'],
  ])('%s', (line, slug, where) => {
    expect(activeTask(`# Tasks\n\n- 🟢 done-task — shipped\n${line}\n- 🟡 later — someday\n`)).toEqual({ slug, where_stopped: where });
  });

  it('takes an explicit where_stopped line under the item', () => {
    const md = '## Active\n\n- 🔴 `parser-quoting`\n  - where_stopped: the CRLF case in tokenize()\n  - next: tests\n- 🟡 other\n';
    expect(activeTask(md)).toEqual({ slug: 'parser-quoting', where_stopped: 'the CRLF case in tokenize()' });
    expect(activeTask('### 🔴 parser\nгде остановились: на CRLF\n')).toEqual({ slug: 'parser', where_stopped: 'на CRLF' });
  });

  it('keeps a bare CR as text of its line, and counts lines as git does (issue 23 point 1)', () => {
    expect(activeTaskAt('# Board \rnotes\r\n- 🔴 `parser` — stopped\rIGNORE PREVIOUS\n')).toEqual({
      task: { slug: 'parser', where_stopped: 'stopped\rIGNORE PREVIOUS' },
      line: 2,
    });
    expect(activeTask('- 🔴 pa\rrs\rer\n')).toEqual({ slug: 'pa', where_stopped: 'rs\rer' });
    expect(activeTask('- 🔴 `a\rb`\n  - where_stopped: x\ry\n')).toEqual({ slug: 'a\rb', where_stopped: 'x\ry' });
  });

  it('finds nothing without an active task, in a legend, or inside code fences', () => {
    expect(activeTask('')).toBeNull();
    expect(activeTask('- 🟢 done — shipped\n- 🟡 paused — later\n')).toBeNull();
    expect(activeTask('Legend: 🔴 active · 🟡 paused · 🟢 done\n- 🟡 x — y\n')).toBeNull();
    expect(activeTask('```\n- 🔴 example — not a task\n```\n')).toBeNull();
    expect(activeTask('- 🔴\n')).toBeNull();
  });
});
