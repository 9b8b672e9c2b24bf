// Injectable DNS answers for outbound tests: no real resolver is involved.
import type { LookupFunction } from 'node:net';

/**
 * A resolver that gives `answers[0]` on the first call, `answers[1]` on the second, and
 * repeats the last answer after that; `calls` counts lookups.
 */
export function lookupAnswering(answers: string[][]): LookupFunction & { calls: number } {
  const lookup = ((_hostname, options, callback) => {
    const answer = answers[Math.min(lookup.calls, answers.length - 1)];
    lookup.calls += 1;
    const list = answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() => {
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  }) as LookupFunction & { calls: number };
  lookup.calls = 0;
  return lookup;
}
