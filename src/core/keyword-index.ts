/**
 * Finds many keywords in one pass (Aho-Corasick): the first step of the secret scanner, so
 * that a 1 MiB text costs one walk, not one search per rule. Case-insensitive for ASCII
 * letters; a character no keyword holds resets the walk. Built with typed arrays and no
 * full transition table, so that building it costs less than a millisecond on start-up.
 */
export class KeywordIndex {
  /** trie edges: next[state * width + column], -1 for none */
  private readonly next: Int32Array;
  private readonly fail: Int32Array;
  /** keywords ending at each state (own and by suffix): outList[outStart[s] .. outStart[s + 1]) */
  private readonly outStart: Int32Array;
  private readonly outList: Int32Array;
  /** ASCII code -> column; 0 for a character no keyword holds */
  private readonly column = new Uint8Array(128);
  private readonly width: number;

  constructor(readonly keywords: string[]) {
    let width = 1;
    let total = 1;
    for (const k of keywords) {
      total += k.length;
      for (let i = 0; i < k.length; i++) {
        const c = k.toLowerCase().charCodeAt(i);
        if (c >= 128) throw new Error(`keyword '${k}' is not ASCII`);
        if (!this.column[c]) this.column[c] = width++;
      }
    }
    for (let c = 65; c <= 90; c++) if (this.column[c + 32]) this.column[c] = this.column[c + 32];
    this.width = width;
    const next = new Int32Array(total * width).fill(-1);
    const children: number[][] = [[]];
    const own: number[][] = [[]];
    let states = 1;
    keywords.forEach((k, ki) => {
      let s = 0;
      const low = k.toLowerCase();
      for (let i = 0; i < low.length; i++) {
        const c = this.column[low.charCodeAt(i)];
        let t = next[s * width + c];
        if (t < 0) {
          t = states++;
          next[s * width + c] = t;
          children[s].push(c);
          children.push([]);
          own.push([]);
        }
        s = t;
      }
      own[s].push(ki);
    });
    const fail = new Int32Array(states);
    const order: number[] = [];
    for (const c of children[0]) order.push(next[c]);
    for (let qi = 0; qi < order.length; qi++) {
      const s = order[qi];
      for (const c of children[s]) {
        const t = next[s * width + c];
        let f = fail[s];
        while (f !== 0 && next[f * width + c] < 0) f = fail[f];
        const g = next[f * width + c];
        fail[t] = g >= 0 && g !== t ? g : 0;
        order.push(t);
      }
    }
    const outs: number[][] = new Array(states);
    outs[0] = [];
    for (const s of order) outs[s] = own[s].concat(outs[fail[s]]);
    this.outStart = new Int32Array(states + 1);
    const flat: number[] = [];
    for (let s = 0; s < states; s++) {
      this.outStart[s] = flat.length;
      for (const k of outs[s] ?? []) flat.push(k);
    }
    this.outStart[states] = flat.length;
    this.outList = Int32Array.from(flat);
    this.next = next;
    this.fail = fail;
  }

  /** Every occurrence, in text order, as flat pairs: keyword index, end offset. */
  scan(text: string): number[] {
    const { next, fail, outStart, outList, column, width } = this;
    const found: number[] = [];
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const c = code < 128 ? column[code] : 0;
      if (c === 0) {
        s = 0;
        continue;
      }
      while (s !== 0 && next[s * width + c] < 0) s = fail[s];
      const t = next[s * width + c];
      s = t < 0 ? 0 : t;
      for (let j = outStart[s], e = outStart[s + 1]; j < e; j++) found.push(outList[j], i + 1);
    }
    return found;
  }
}
