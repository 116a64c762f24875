/**
 * The phrase classifier: is a user's message the end of the session, a task-zone phrase,
 * an ambiguous closing phrase, or neither (the whitelist and false-positive guards
 * of the closing ritual this classifier was taken from). Pure: text and lists in, a class out.
 *
 * Phrases match whole words, case- and punctuation-insensitively, anywhere in a longer
 * message; text in code spans and identifiers (`end_session`, `end-session`) never matches,
 * nor does a phrase right after a negation ("don't end session yet").
 */
export type PhraseClass = 'session-end' | 'task' | 'ambiguous' | 'none';

export interface PhraseLists {
  /** the session ends: write the handoff now */
  session_end: string[];
  /** task-zone phrases: closing or pausing one task, not the session */
  task: string[];
  /** a closing phrase that says neither session nor task: ask */
  ambiguous: string[];
  /** broad farewells: never a trigger */
  none: string[];
  /** words pointing at a task; beside a bare closing phrase they make it a task or a question */
  task_refs: string[];
  /** words scoping a bare closing phrase to the session ("for today") */
  session_scope: string[];
}

export const PHRASE_KEYS = ['session_end', 'task', 'ambiguous', 'none', 'task_refs', 'session_scope'] as const;

/** Built-in lists; `phrases` in `.harness/session-workflow.yaml` replaces any of them. */
export const DEFAULT_PHRASES: PhraseLists = {
  session_end: [
    // the closing ritual's own phrases, verbatim
    'завершаем сессию',
    'сворачиваемся',
    'закругляемся',
    'wrap up session',
    'end session',
    "we're done for now",
    // the same, in the forms people type
    'сессию завершаем',
    'сессию заканчиваем',
    'сессию закрываем',
    'заканчиваем сессию',
    'закрываем сессию',
    'завершим сессию',
    'закончим сессию',
    'на сегодня всё',
    'на сегодня хватит',
    'wrap up the session',
    'wrap up this session',
    "let's wrap up the session",
    'end the session',
    'end this session',
    "let's end the session",
    'close the session',
    'we are done for now',
    'were done for now',
    "that's all for today",
    "that's it for today",
    'call it a day',
    '结束会话',
    '结束这次会话',
    '结束本次会话',
    '今天就到这里',
    '今天先到这里',
    '今天到此为止',
    // closing a day's work, in the forms people type
    'done for the day',
    'done for today',
    "that's it for the day",
    "that's all for the day",
    "let's call it a day",
    'lets call it a day',
    'calling it a day',
    'call it a night',
    "let's call it a night",
    'signing off for the day',
    'signing off for today',
    "let's stop for today",
    "let's stop for the day",
    'enough for today',
    "let's continue tomorrow",
    "we'll continue tomorrow",
    'pick this up tomorrow',
    'на сегодня закончили',
    'на сегодня заканчиваем',
    'на сегодня закругляемся',
    'на сегодня достаточно',
    'на этом на сегодня всё',
    'заканчиваем на сегодня',
    'закругляемся на сегодня',
    'всё на сегодня',
    'хватит на сегодня',
    'продолжим завтра',
    'давай продолжим завтра',
    '今天就这样',
    '今天就这样吧',
    '今天先这样',
    '今天收工',
    '今天结束',
    '明天继续',
    '下班了',
  ],
  task: [
    'закрываем эту таску',
    'закрываем таску',
    'закрываем задачу',
    'закрываем эту задачу',
    'завершаем задачу',
    'завершаем эту задачу',
    'сейчас завершу одну задачу',
    'завершу одну задачу',
    'приостанови',
    'приостановим',
    'пауза',
    'pause',
    'close this task',
    'close the task',
    'this task is done',
    '暂停',
    '关闭这个任务',
    '结束这个任务',
  ],
  ambiguous: [
    "let's wrap up",
    'lets wrap up',
    'let us wrap up',
    "let's wrap it up",
    'wrap it up',
    'time to wrap up',
    'wrapping up',
    "let's stop here",
    "let's call it",
    "we're done",
    'we are done',
    'заканчиваем',
    'завершаем',
    'давай закончим',
    'на этом всё',
    '收工',
    '就到这里',
    '到此为止',
    '结束吧',
    // a thanks-and-goodbye or "see you tomorrow" after work: ask, never guess
    "i'm done",
    'im done',
    'i am done',
    'thanks bye',
    'thank you bye',
    'bye for now',
    'see you tomorrow',
    'спасибо пока',
    'спасибо до завтра',
    'до завтра',
    '谢谢再见',
    '谢谢 再见',
    '先这样吧',
    '明天见',
  ],
  none: ['отбой', 'разбегаемся', 'bye', 'goodbye', 'see you', '再见', '拜拜'],
  task_refs: ['this task', 'that task', 'the task', 'эту таску', 'эту задачу', 'эта задача', 'задачу', 'таску', 'задачей', 'таской', '这个任务', '任务'],
  session_scope: ['today', 'tonight', 'сегодня', '今天', '今晚'],
};

export interface Classification {
  class: PhraseClass;
  /** the phrase that decided, as written in the list; null when nothing matched */
  matched: string | null;
}

const NEGATIONS = new Set(["don't", 'dont', 'not', 'never', "let's not", 'не', 'ни', 'никогда']);
/**
 * Words that, right after a phrase, make it the name of a thing in the code ("the end
 * session button", "end session handler"): technical text, not the user closing anything.
 */
const TECHNICAL_NOUNS = new Set(
  'button buttons handler handlers hook hooks event events endpoint endpoints api route request requests callback function method methods call calls logic flow screen page dialog modal test tests bug code message command flag option feature action signal timeout url кнопка кнопку кнопки обработчик обработчика хук хука событие события эндпоинт метод метода функция функцию запрос запроса'.split(
    ' ',
  ),
);
/** "we're done with X", «заканчиваем с X»: the phrase closes X, not the session. */
const OBJECT_MARKERS = new Set(['with', 'с', 'со']);
const CJK_NEGATIONS = ['不要', '不', '别', '没', '先别'];
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The classifier's folding of text before it is cut into words: NFKC, lower case, ё as е,
 * every apostrophe as '. The shell prefilter (./prompt-prefilter.ts) is derived from it.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[’‘ʼ`´]/g, "'");
}

/** Lower-cased words joined by one space, padded; code spans dropped; identifiers kept whole. */
export function normalizeText(text: string): string {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
  const flat = foldText(prose);
  // Letters, digits, marks, and the joiners of identifiers and contractions are word characters.
  const words = flat
    .split(/[^\p{L}\p{N}\p{M}_'-]+/u)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean);
  return ` ${words.join(' ')} `;
}

interface Match {
  cls: keyof PhraseLists;
  phrase: string;
  start: number;
  end: number;
  /** names a thing in the code: it still covers the shorter phrases inside it, then drops out */
  technical?: boolean;
}

function negated(text: string, start: number, cjk: boolean): boolean {
  if (cjk) {
    const before = text.slice(Math.max(0, start - 2), start);
    return CJK_NEGATIONS.some((n) => before.endsWith(n));
  }
  const words = text.slice(0, start).trim().split(' ');
  const last = words[words.length - 1] ?? '';
  const two = words.slice(-2).join(' ');
  return NEGATIONS.has(last) || NEGATIONS.has(two);
}

/** The first `n` words after position `end` of normalized text. */
function wordsAfter(text: string, end: number, n: number): string[] {
  return text.slice(end).trim().split(' ').filter(Boolean).slice(0, n);
}

function findAll(text: string, cls: keyof PhraseLists, phrase: string, out: Match[]): void {
  const norm = normalizeText(phrase).trim();
  if (!norm) return;
  const cjk = CJK.test(norm);
  const needle = cjk ? norm : ` ${norm} `;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const start = cjk ? at : at + 1;
    const end = start + norm.length;
    if (negated(text, start, cjk)) continue;
    const technical = !cjk && TECHNICAL_NOUNS.has(wordsAfter(text, end, 1)[0] ?? '');
    out.push({ cls, phrase, start, end, ...(technical ? { technical } : {}) });
  }
}

/** Longer matches win where they overlap ("今天就到这里" over "就到这里"). */
function resolveOverlaps(matches: Match[]): Match[] {
  const sorted = [...matches].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: Match[] = [];
  for (const m of sorted) if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  return kept.sort((a, b) => a.start - b.start);
}

const SESSION_WORD = /сесси|session|会话/;

/** Classifies one user message (docs/agents.md, `classify`). */
export function classifyPhrase(message: string, lists: PhraseLists = DEFAULT_PHRASES): Classification {
  const text = normalizeText(message);
  const all: Match[] = [];
  for (const cls of PHRASE_KEYS) for (const p of lists[cls]) findAll(text, cls, p, all);
  const kept = resolveOverlaps(all).filter((m) => !m.technical);
  const first = (cls: keyof PhraseLists) => kept.find((m) => m.cls === cls);
  const end = first('session_end');
  const task = first('task');
  const ambiguous = first('ambiguous');
  const ref = first('task_refs');
  const scope = first('session_scope');

  // What a bare closing phrase closes when an object follows it ("we're done with the parser").
  const object = (m: Match): 'session' | 'other' | null => {
    const after = wordsAfter(text, m.end, 5);
    if (!OBJECT_MARKERS.has(after[0] ?? '')) return null;
    return SESSION_WORD.test(after.slice(1).join(' ')) ? 'session' : 'other';
  };

  if (end) {
    // A bare closing word ("сворачиваемся") aimed at a task is a question, not a session end.
    const explicit = kept.find((m) => m.cls === 'session_end' && SESSION_WORD.test(normalizeText(m.phrase)));
    if (explicit) return { class: 'session-end', matched: explicit.phrase };
    if ((task || ref || object(end) === 'other') && !scope) return { class: 'ambiguous', matched: end.phrase };
    return { class: 'session-end', matched: end.phrase };
  }
  if (task) return { class: 'task', matched: task.phrase };
  if (ambiguous) {
    if (scope) return { class: 'session-end', matched: ambiguous.phrase };
    if (ref) return { class: 'task', matched: ref.phrase };
    const closes = object(ambiguous);
    if (closes === 'session') return { class: 'session-end', matched: ambiguous.phrase };
    if (closes === 'other') return { class: 'task', matched: ambiguous.phrase };
    return { class: 'ambiguous', matched: ambiguous.phrase };
  }
  const farewell = first('none');
  return { class: 'none', matched: farewell ? farewell.phrase : null };
}

export interface PhrasesPolicyResult {
  lists: PhraseLists;
  problems: string[];
}

const ALIASES: Record<string, keyof PhraseLists> = {
  session_end: 'session_end',
  'session-end': 'session_end',
  sessionEnd: 'session_end',
  task: 'task',
  ambiguous: 'ambiguous',
  none: 'none',
  task_refs: 'task_refs',
  'task-refs': 'task_refs',
  taskRefs: 'task_refs',
  session_scope: 'session_scope',
  'session-scope': 'session_scope',
  sessionScope: 'session_scope',
};

/**
 * The lists from the `phrases` key of the policy file: each list given replaces the
 * built-in one; anything malformed is reported and the built-in list kept.
 */
export function phrasesFromPolicy(value: unknown): PhrasesPolicyResult {
  const lists: PhraseLists = { ...DEFAULT_PHRASES };
  const problems: string[] = [];
  if (value === undefined || value === null) return { lists, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { lists, problems: ['phrases must be a mapping of lists'] };
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = ALIASES[k];
    if (!key) {
      problems.push(`phrases.${k} is not a known list (${PHRASE_KEYS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
      problems.push(`phrases.${k} must be a list of strings`);
      continue;
    }
    lists[key] = (v as string[]).filter((x) => x.trim() !== '');
  }
  return { lists, problems };
}
