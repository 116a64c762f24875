/**
 * Finds many keywords in one pass (Aho-Corasick, compiled to a transition table): the
 * first step of the secret scanner, so that a 1 MiB text costs one walk, not one search
 * per rule. Case-insensitive for ASCII letters; a character no keyword holds resets.
 */
export class KeywordIndex {
  private readonly delta: Int32Array;
  /** for each state, the keywords that end there (own and by suffix) */
  private readonly out: (number[] | null)[];
  /** ASCII code -> column; 0 for a character no keyword holds */
  private readonly column = new Uint8Array(128);
  private readonly width: number;

  constructor(readonly keywords: string[]) {
    let width = 1;
    for (const k of keywords) {
      for (const ch of k.toLowerCase()) {
        const c = ch.charCodeAt(0);
        if (c >= 128) throw new Error(`keyword '${k}' is not ASCII`);
        if (!this.column[c]) this.column[c] = width++;
      }
    }
    for (let c = 65; c <= 90; c++) this.column[c] = this.column[c + 32];
    this.width = width;
    const goto: Map<number, number>[] = [new Map()];
    const own: number[][] = [[]];
    keywords.forEach((k, ki) => {
      let s = 0;
      for (const ch of k.toLowerCase()) {
        const c = this.column[ch.charCodeAt(0)];
        let next = goto[s].get(c);
        if (next === undefined) {
          next = goto.length;
          goto.push(new Map());
          own.push([]);
          goto[s].set(c, next);
        }
        s = next;
      }
      own[s].push(ki);
    });
    const n = goto.length;
    const delta = new Int32Array(n * width);
    const fail = new Int32Array(n);
    const out: (number[] | null)[] = new Array(n).fill(null);
    const queue: number[] = [];
    for (const [c, t] of goto[0]) {
      delta[c] = t;
      queue.push(t);
    }
    for (let qi = 0; qi < queue.length; qi++) {
      const s = queue[qi];
      const outs = [...own[s], ...(out[fail[s]] ?? [])];
      out[s] = outs.length ? outs : null;
      const row = s * width;
      const failRow = fail[s] * width;
      for (let c = 1; c < width; c++) {
        const t = goto[s].get(c);
        if (t !== undefined) {
          fail[t] = delta[failRow + c];
          queue.push(t);
          delta[row + c] = t;
        } else delta[row + c] = delta[failRow + c];
      }
    }
    this.delta = delta;
    this.out = out;
  }

  /** Calls `hit(keywordIndex, endOffset)` for every occurrence, in text order. */
  scan(text: string, hit: (keyword: number, end: number) => void): void {
    const { delta, out, column, width } = this;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      s = c < 128 ? delta[s * width + column[c]] : 0;
      if (s === 0) continue;
      const o = out[s];
      if (o !== null) for (let j = 0; j < o.length; j++) hit(o[j], i + 1);
    }
  }
}
