// Textbook BM25 (k1 1.2, b 0.75) over whole chunks (heading + body), the baseline that
// bench/retrieval.ts measures Relay's retriever against. Deliberately plain: lower-cased words of
// letters and digits, no stemming, no stop words, no fields. Kept apart from src/ so it never moves.
const K1 = 1.2;
const B = 0.75;
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class PlainBm25<T> {
  private readonly docs: T[] = [];
  private readonly lengths: number[] = [];
  private readonly postings = new Map<string, Array<[number, number]>>();
  private total = 0;

  add(doc: T, text: string): void {
    const id = this.docs.push(doc) - 1;
    const tokens = words(text);
    this.lengths.push(tokens.length);
    this.total += tokens.length;
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      if (!this.postings.has(t)) this.postings.set(t, []);
      this.postings.get(t)!.push([id, n]);
    }
  }

  search(query: string, limit: number): T[] {
    const n = this.docs.length;
    const avg = this.total / n;
    const scores = new Map<number, number>();
    for (const t of new Set(words(query))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [id, tf] of list) {
        const norm = tf + K1 * (1 - B + (B * this.lengths[id]!) / avg);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      }
    }
    return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit).map(([id]) => this.docs[id]!);
  }
}
