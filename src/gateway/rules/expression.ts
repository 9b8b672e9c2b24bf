// JSONata expressions of rule files: compiled once at load, evaluated with JSONata's own
// guardrails (jsonata >= 2.2.2: `stack`, `sequence`, `timeout`), a count of evaluation steps and a
// linear-time regex engine, so a runaway expression fails with an error for that rule instead of
// stalling the worker. The step count is the working limit: it fails the same expression on a busy
// machine as on an idle one, where a time limit would fail a rule only under load.
import jsonata from 'jsonata';
import { SafeRegExp, checkRegex } from './safeRegex.ts';

export const EXPRESSION_LIMITS = {
  /** Evaluation steps (JSONata AST nodes entered) of one evaluation: about 0.5 s on an idle 2-core machine. */
  steps: 10_000,
  /** Wall time of one evaluation, checked at each step: only a backstop for single steps that run long. */
  timeoutMs: 10_000,
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

const STEPS = Symbol('relay.steps');

/**
 * JSONata calls `jsonata.__evaluate_entry` on entering each node; `environment.base` is the frame
 * of one evaluate() call, so the count is per evaluation even when evaluations interleave.
 */
function countStep(_expr: unknown, _input: unknown, environment: { base: Record<symbol, number> }): void {
  const base = environment.base;
  base[STEPS] = (base[STEPS] ?? 0) + 1;
  if (base[STEPS] > EXPRESSION_LIMITS.steps) {
    throw { code: 'STEPS', message: `Evaluation took more than ${EXPRESSION_LIMITS.steps} steps. Check for an infinite loop or a very large input` };
  }
}

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
    expression.assign(Symbol.for('jsonata.__evaluate_entry') as unknown as string, countStep);
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
