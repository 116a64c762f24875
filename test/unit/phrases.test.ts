import { describe, expect, it } from 'vitest';
import { classifyPhrase, normalizeText, phrasesFromPolicy, DEFAULT_PHRASES, type PhraseClass } from '../../src/core/phrases.js';

const table: [string, PhraseClass, string | null][] = [
  // session end: the source whitelist, whole phrases, any case and punctuation, inside longer messages
  ['завершаем сессию', 'session-end', 'завершаем сессию'],
  ['Завершаем сессию!', 'session-end', 'завершаем сессию'],
  ['ок, всё готово, ЗАВЕРШАЕМ СЕССИЮ.', 'session-end', 'завершаем сессию'],
  ['сворачиваемся', 'session-end', 'сворачиваемся'],
  ['ну всё, сворачиваемся', 'session-end', 'сворачиваемся'],
  ['закругляемся', 'session-end', 'закругляемся'],
  ['Закругляемся на сегодня', 'session-end', 'закругляемся на сегодня'],
  ['wrap up session', 'session-end', 'wrap up session'],
  ['Great work. Wrap up session, please.', 'session-end', 'wrap up session'],
  ['end session', 'session-end', 'end session'],
  ['OK — END SESSION!!!', 'session-end', 'end session'],
  ["we're done for now", 'session-end', "we're done for now"],
  ['We’re done for now, thanks!', 'session-end', "we're done for now"],
  ['thanks, we are done for now', 'session-end', 'we are done for now'],
  ['结束会话', 'session-end', '结束会话'],
  ['好的，结束会话吧。', 'session-end', '结束会话'],
  ['今天就到这里', 'session-end', '今天就到这里'],
  ['辛苦了，今天就到这里吧！', 'session-end', '今天就到这里'],
  ['отбой, завершаем сессию', 'session-end', 'завершаем сессию'],
  ['закрываем эту таску и завершаем сессию', 'session-end', 'завершаем сессию'],
  ["let's wrap up for today", 'session-end', "let's wrap up"],
  ['ну всё, сессию завершаем', 'session-end', 'сессию завершаем'],
  ['сессию заканчиваем, спасибо', 'session-end', 'сессию заканчиваем'],
  ["ok, we're done with this session", 'session-end', "we're done"],
  ['今天收工吧', 'session-end', '今天收工'],
  // task zone
  ['закрываем эту таску', 'task', 'закрываем эту таску'],
  ['Закрываем эту таску.', 'task', 'закрываем эту таску'],
  ['pause', 'task', 'pause'],
  ['Pause.', 'task', 'pause'],
  ['приостанови', 'task', 'приостанови'],
  ['приостанови пока, надо подумать', 'task', 'приостанови'],
  ['сейчас завершу одну задачу и тогда поговорим', 'task', 'сейчас завершу одну задачу'],
  ["let's wrap up this task", 'task', 'this task'],
  // a closing phrase with its object: it closes that, not the session
  ["Great, we're done with the parser. Now the CLI.", 'task', "we're done"],
  ['we are done with step 1, next is step 2', 'task', 'we are done'],
  ['заканчиваем с рефакторингом и переходим к тестам', 'task', 'заканчиваем'],
  ['暂停一下', 'task', '暂停'],
  // ambiguous: a closing phrase that says neither session nor task
  ["let's wrap up", 'ambiguous', "let's wrap up"],
  ["Let's wrap up.", 'ambiguous', "let's wrap up"],
  ['收工吧', 'ambiguous', '收工'],
  ["ok we're done", 'ambiguous', "we're done"],
  ['заканчиваем', 'ambiguous', 'заканчиваем'],
  ['сворачиваемся с этой задачей', 'ambiguous', 'сворачиваемся'],
  ['закругляемся с парсером', 'ambiguous', 'закругляемся'],
  // closing a day's work
  ["I'm done for the day", 'session-end', 'done for the day'],
  ["let's call it a day", 'session-end', "let's call it a day"],
  ['на сегодня закончили, продолжим завтра', 'session-end', 'на сегодня закончили'],
  ['好的，今天就这样吧', 'session-end', '今天就这样吧'],
  ['ok thanks, bye', 'ambiguous', 'thanks bye'],
  ['Спасибо, пока!', 'ambiguous', 'спасибо пока'],
  ['谢谢，再见', 'ambiguous', '谢谢 再见'],
  ["I'm done with the parser", 'task', "i'm done"],
  ["I'm not done for the day", 'none', null],
  // none: broad farewells
  ['отбой', 'none', 'отбой'],
  ['Отбой!', 'none', 'отбой'],
  ['разбегаемся', 'none', 'разбегаемся'],
  ['ну всё, разбегаемся', 'none', 'разбегаемся'],
  // none: technical text that merely contains "session" or "end"
  ['fix the session end handler', 'none', null],
  ['the session ended with an error in the end', 'none', null],
  ['rename end_session() to endSession()', 'none', null],
  ['add an end-session hook to the API', 'none', null],
  ['why does `end session` throw here?', 'none', null],
  ['```\nend session\n```\nwhat does this print?', 'none', null],
  ['SessionEnd fires at the end of the weekend session', 'none', null],
  ['the session cookie should end with a semicolon', 'none', null],
  // the phrase as the name of a thing in the code
  ['the end session button is broken', 'none', null],
  ['end session handler crashes on logout', 'none', null],
  ['add a pause button to the player', 'none', null],
  ['почему «Завершаем сессию» кнопка не нажимается?', 'none', null],
  // negated
  ["don't end session yet", 'none', null],
  ['не завершаем сессию, ещё рано', 'none', null],
  // ordinary messages
  ['please add a test for the parser', 'none', null],
  ['почини, пожалуйста, тест парсера', 'none', null],
  ['帮我修复这个测试', 'none', null],
  ['', 'none', null],
  ['   ', 'none', null],
];

describe('classifyPhrase', () => {
  it.each(table)('%j -> %s', (text, cls, matched) => {
    expect(classifyPhrase(text)).toEqual({ class: cls, matched });
  });

  it('classifies every built-in phrase as its own list says, alone and inside a sentence', () => {
    const expectClass: Record<string, PhraseClass> = { session_end: 'session-end', task: 'task', none: 'none' };
    for (const [key, cls] of Object.entries(expectClass)) {
      for (const p of DEFAULT_PHRASES[key as 'task']) {
        expect(classifyPhrase(p).class, p).toBe(cls);
        expect(classifyPhrase(`Ok. ${p.toUpperCase()}!`).class, p).toBe(cls);
      }
    }
    for (const p of DEFAULT_PHRASES.ambiguous) expect(classifyPhrase(p).class, p).toBe('ambiguous');
  });
});

describe('normalizeText', () => {
  it('keeps identifiers whole and drops code spans and punctuation', () => {
    expect(normalizeText('End_Session(), "wrap-up"; `x y` ёлка')).toBe(' end_session wrap-up елка ');
  });
});

describe('phrasesFromPolicy', () => {
  it('replaces the lists given and keeps the others', () => {
    const r = phrasesFromPolicy({ session_end: ['шабаш'], 'task-refs': ['тикет'] });
    expect(r.problems).toEqual([]);
    expect(r.lists.session_end).toEqual(['шабаш']);
    expect(r.lists.task_refs).toEqual(['тикет']);
    expect(r.lists.task).toBe(DEFAULT_PHRASES.task);
    expect(classifyPhrase('ну всё, шабаш', r.lists)).toEqual({ class: 'session-end', matched: 'шабаш' });
    expect(classifyPhrase('завершаем сессию', r.lists).class).toBe('ambiguous');
  });

  it('reports a malformed list and keeps the built-in one', () => {
    const r = phrasesFromPolicy({ task: 'pause', extra: [] });
    expect(r.problems).toEqual(['phrases.task must be a list of strings', expect.stringContaining('phrases.extra is not a known list')]);
    expect(r.lists.task).toBe(DEFAULT_PHRASES.task);
    expect(phrasesFromPolicy(['x']).problems).toEqual(['phrases must be a mapping of lists']);
    expect(phrasesFromPolicy(undefined).lists).toEqual(DEFAULT_PHRASES);
  });
});
