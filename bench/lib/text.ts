// Reproducible prose for benchmarks: words drawn from a vocabulary by a seeded generator, so the
// text compresses and tokenizes like prose (not like a repeated string) and every run is the same.
const VOCABULARY = (
  'account address answer battery billing blender cable charge cloth colour connect customer delivery device discount ' +
  'download email error exchange filter firmware guarantee handle install invoice kettle label light manual model ' +
  'network order package password payment plug power price product refund register repair replace reset return ' +
  'screen serial setting shipping size software speaker status subscription support switch system toaster update ' +
  'upgrade user voltage warranty water wireless the a to of and in is for with on you your can be it'
).split(' ');

export function seededText(seed: number): { random: () => number; words: (n: number) => string } {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = (n: number) => Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]).join(' ');
  return { random, words };
}
