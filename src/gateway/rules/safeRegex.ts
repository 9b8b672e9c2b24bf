// A RegExp stand-in backed by re2js (a linear-time RE2 port), handed to JSONata as its
// `RegexEngine`. JSONata's timeout guardrail is checked between evaluation steps, so it cannot stop
// one native regex that backtracks for minutes (`/(a+)+$/` on "aaaa…b"); RE2 never backtracks.
// Backreferences and lookaround are not supported and are reported when a rule file loads.
import { RE2JS } from 're2js';

export class SafeRegExp {
  lastIndex = 0;
  readonly source: string;
  private readonly pattern: RE2JS;

  constructor(re: RegExp | string) {
    const source = typeof re === 'string' ? re : re.source;
    const flags = typeof re === 'string' ? '' : re.flags;
    this.source = source;
    let bits = 0;
    if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) bits |= RE2JS.MULTILINE;
    this.pattern = RE2JS.compile(source, bits);
  }

  /** The subset of RegExp#exec that JSONata uses: match, groups, index and a sticky lastIndex. */
  exec(input: string): RegExpExecArray | null {
    const matcher = this.pattern.matcher(input);
    if (this.lastIndex > input.length || !matcher.find(this.lastIndex)) {
      this.lastIndex = 0;
      return null;
    }
    const groups: string[] = [];
    for (let g = 0; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) as string);
    const result = Object.assign(groups, { index: matcher.start(), input }) as unknown as RegExpExecArray;
    this.lastIndex = matcher.end();
    return result;
  }

  test(input: string): boolean {
    return this.exec(input) !== null;
  }
}

/** Throws the RE2 syntax error for a regex JSONata parsed, so a rule file can name it at load. */
export function checkRegex(re: RegExp): void {
  void new SafeRegExp(re);
}
