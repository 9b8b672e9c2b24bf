// JSONata expressions of rule files: compiled once at load, evaluated with JSONata's own
// guardrails (jsonata >= 2.2.2: `timeout`, `stack`, `sequence`) and a linear-time regex engine,
// so a runaway expression fails with an error for that rule instead of stalling the worker.
import jsonata from 'jsonata';
import { SafeRegExp, checkRegex } from './safeRegex.ts';

export const EXPRESSION_LIMITS = {
  /** Wall time of one evaluation, checked at each evaluation step. */
  timeoutMs: 250,
  /** Nested evaluation depth (deep or infinite recursion). */
  stackDepth: 500,
  /** Longest sequence an expression may build (`[1..1e9]`, huge $map results). */
  sequenceLength: 100_000,
};

const OPTIONS = {
  timeout: EXPRESSION_LIMITS.timeoutMs,
  stack: EXPRESSION_LIMITS.stackDepth,
  sequence: EXPRESSION_LIMITS.sequenceLength,
  RegexEngine: SafeRegExp as unknown as RegExpConstructor,
};

export interface CompiledExpression {
  text: string;
  evaluate(input: unknown): Promise<unknown>;
}

/** A JSONata error with a readable message (code, position, token). */
export function describeJsonataError(err: unknown): string {
  const e = err as { code?: string; message?: string; position?: number; token?: string };
  if (!e || typeof e !== 'object') return String(err);
  const where = typeof e.position === 'number' ? ` (position ${e.position})` : '';
  return `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}${where}`;
}

function collectRegexes(node: unknown, out: RegExp[], seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (node instanceof RegExp) {
    out.push(node);
    return;
  }
  for (const child of Object.values(node)) collectRegexes(child, out, seen);
}

/** Compiles an expression or throws a readable error; also rejects regexes RE2 cannot run. */
export function compileExpression(text: string): CompiledExpression {
  let expression: jsonata.Expression;
  try {
    expression = jsonata(text, OPTIONS);
  } catch (err) {
    throw new Error(describeJsonataError(err));
  }
  const regexes: RegExp[] = [];
  collectRegexes(expression.ast(), regexes);
  for (const re of regexes) {
    try {
      checkRegex(re);
    } catch (err) {
      throw new Error(`regex /${re.source}/ is not supported (linear-time engine): ${(err as Error).message}`);
    }
  }
  return {
    text,
    async evaluate(input) {
      try {
        return await expression.evaluate(input);
      } catch (err) {
        throw new Error(describeJsonataError(err));
      }
    },
  };
}
