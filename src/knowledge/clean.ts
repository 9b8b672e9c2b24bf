// What a row's markdown loses before it is chunked and indexed: YAML front matter, HTML comments
// (e.g. Node's `<!-- YAML added: v15.0.0 -->` history blocks) and link reference definitions.
// None of them is prose a reader wants quoted back, and their words only add noise to ranking.
// Code fences are left exactly as they are.
const FENCE = /^ {0,3}(```|~~~)/;
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:[ \t]*\S+.*(?:\r?\n|$)/gm;

function cleanProse(text: string): string {
  return withoutComments(text).replace(LINK_DEFINITION, '');
}

/**
 * Cuts each `<!-- … -->`; an unclosed `<!--` stays. By indexOf: a lazy pattern rescans the rest of
 * the text from every unclosed `<!--`, quadratic in a row of many of them.
 */
function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', at)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    out += text.slice(at, open);
    at = close + 3;
  }
  return out + text.slice(at);
}

export function cleanMarkdown(markdown: string): string {
  const lines = markdown.replace(FRONT_MATTER, (block) => (/^description:[ \t]*(.+)$/m.exec(block)?.[1]?.replace(/^["']|["']$/g, '') ?? '') + '\n').split('\n');
  const out: string[] = [];
  let prose: string[] = [];
  let fence: string | null = null;
  const flush = () => {
    if (prose.length) out.push(cleanProse(prose.join('\n')));
    prose = [];
  };
  for (const line of lines) {
    const marker = FENCE.exec(line)?.[1];
    if (fence === null && marker) {
      flush();
      fence = marker;
      out.push(line);
    } else if (fence !== null) {
      out.push(line);
      if (marker === fence) fence = null;
    } else {
      prose.push(line);
    }
  }
  flush();
  // Removed blocks leave runs of blank lines behind; one is enough.
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
