/**
 * Finds many keywords in one pass (Aho-Corasick): the first step of the secret scanner, so
 * that a 1 MiB text costs one walk, not one search per rule. Case-insensitive for ASCII
 * letters; a character no keyword holds resets the walk.
 *
 * The automaton is a full transition table (one typed-array load per character, no failure
 * links to follow while scanning), built breadth first with a native row copy per state, so
 * that the ~2,000 states of the scanner's ~300 keywords cost few JavaScript steps on a cold start.
 */
export class KeywordIndex {
  /**
   * next[state * width + column]: the next state, premultiplied by `width`, and bitwise
   * negated (`~`) when that state ends at least one keyword.
   */
  private readonly next: Int32Array;
  /** keywords ending at each state (own, then by suffix): outList[outStart[s] .. outStart[s + 1]) */
  private readonly outStart: Int32Array;
  private readonly outList: Int32Array;
  /** ASCII code -> column; 0 for a character no keyword holds */
  private readonly column = new Uint8Array(128);
  private readonly width: number;
  /** the occurrences found by the last `scanInto`: flat pairs of keyword index and end offset */
  hits = new Int32Array(1 << 16);

  constructor(readonly keywords: string[]) {
    const column = this.column;
    const lower = keywords.map((k) => k.toLowerCase());
    let width = 1;
    let total = 1;
    for (const k of lower) {
      total += k.length;
      for (let i = 0; i < k.length; i++) {
        const c = k.charCodeAt(i);
        if (c >= 128) throw new Error(`keyword '${k}' is not ASCII`);
        if (!column[c]) column[c] = width++;
      }
    }
    for (let c = 65; c <= 90; c++) if (column[c + 32]) column[c] = column[c + 32];
    this.width = width;

    // The trie, raw state numbers (0, the root, is no state's child: 0 means no edge). Each
    // state's children are also kept as a list (first child, next sibling, the column each
    // hangs on), so that filling the rows below walks edges, not cells.
    const next = new Int32Array(total * width);
    const firstChild = new Int32Array(total);
    const sibling = new Int32Array(total);
    const columnOf = new Int32Array(total);
    /** keywords owned by a state, as a linked list: ownFirst[state], then ownNext[keyword] */
    const ownFirst = new Int32Array(total).fill(-1);
    const ownNext = new Int32Array(keywords.length).fill(-1);
    const ownLast = new Int32Array(total).fill(-1);
    let states = 1;
    for (let ki = 0; ki < lower.length; ki++) {
      const k = lower[ki];
      let s = 0;
      for (let i = 0; i < k.length; i++) {
        const c = column[k.charCodeAt(i)];
        let t = next[s * width + c];
        if (t === 0) {
          t = states++;
          next[s * width + c] = t;
          columnOf[t] = c;
          sibling[t] = firstChild[s];
          firstChild[s] = t;
        }
        s = t;
      }
      if (ownFirst[s] < 0) ownFirst[s] = ki;
      else ownNext[ownLast[s]] = ki;
      ownLast[s] = ki;
    }

    // Breadth first: a state's failure state is shallower, so its row and its outputs are
    // complete when the state is reached. A state's row is its failure state's row (copied
    // whole) with its own edges on top; the root's is its edges and the root.
    const fail = new Int32Array(states);
    const outCount = new Int32Array(states);
    const order = new Int32Array(states);
    let queued = 1;
    for (let qi = 0; qi < queued; qi++) {
      const s = order[qi];
      const row = s * width;
      if (s !== 0) next.copyWithin(row, fail[s] * width, fail[s] * width + width);
      for (let t = firstChild[s]; t !== 0; t = sibling[t]) {
        const c = columnOf[t];
        // where the failure state goes on this column (the root's children fail to the root)
        const via = s === 0 ? 0 : next[row + c];
        const tf = (via < 0 ? ~via : via) / width;
        fail[t] = tf;
        let own = 0;
        for (let k = ownFirst[t]; k >= 0; k = ownNext[k]) own++;
        outCount[t] = own + outCount[tf];
        order[queued++] = t;
        next[row + c] = outCount[t] ? ~(t * width) : t * width;
      }
    }
    this.outStart = new Int32Array(states + 1);
    for (let s = 0; s < states; s++) this.outStart[s + 1] = this.outStart[s] + outCount[s];
    this.outList = new Int32Array(this.outStart[states]);
    for (let qi = 1; qi < queued; qi++) {
      const s = order[qi];
      let at = this.outStart[s];
      for (let k = ownFirst[s]; k >= 0; k = ownNext[k]) this.outList[at++] = k;
      this.outList.copyWithin(at, this.outStart[fail[s]], this.outStart[fail[s] + 1]);
    }
    this.next = next;
  }

  /**
   * Every occurrence, in text order (by end; at one end the longer keyword first), written
   * to `hits` as flat pairs of keyword index and end offset (reused by the next call); returns the count of
   * occurrences.
   */
  scanInto(text: string): number {
    const { next, outStart, outList, column, width } = this;
    let hits = this.hits;
    let n = 0;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      const v = next[s + (code < 128 ? column[code] : 0)];
      if (v >= 0) {
        s = v;
        continue;
      }
      s = ~v;
      const state = s / width;
      for (let j = outStart[state], e = outStart[state + 1]; j < e; j++) {
        if (n === hits.length) {
          const grown = new Int32Array(hits.length * 2);
          grown.set(hits);
          hits = this.hits = grown;
        }
        hits[n] = outList[j];
        hits[n + 1] = i + 1;
        n += 2;
      }
    }
    return n >> 1;
  }
}
