// Token counting for replies that no model metered (the grounded answerer, aborted streams).
// cl100k_base is loaded once, on first use, because its rank table takes a moment to build.
import { getEncoding, type Tiktoken } from 'js-tiktoken';

let encoding: Tiktoken | undefined;

export function countTokens(...texts: string[]): number {
  encoding ??= getEncoding('cl100k_base');
  let total = 0;
  for (const text of texts) if (text) total += encoding.encode(text).length;
  return total;
}
