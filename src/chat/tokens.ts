// Token counting for replies that no model metered (the grounded answerer, aborted streams).
// The same cl100k_base tokenizer as chunking (datasources/chunking.ts): one rank table per process,
// not two (a second library held ~10 MiB of live heap).
import { countTokens as count } from 'gpt-tokenizer/encoding/cl100k_base';

/** Special-token text ("<|endoftext|>") counts as the plain text it is: the library would throw. */
const PLAIN = { disallowedSpecial: new Set<string>() };

export function countTokens(...texts: string[]): number {
  let total = 0;
  for (const text of texts) if (text) total += count(text, PLAIN);
  return total;
}
