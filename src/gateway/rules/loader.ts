// Loads the rules folder: every *.json file but the rule fixtures (*.test.json, fixtures.ts), validated and compiled. A broken file is reported
// (file, rule, field, expression) and left out; it never stops the other files from loading.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { compileExpression, type CompiledExpression } from './expression.ts';
import { EXPRESSION_FIELDS, RuleSchema, type ActionDefinition, type RuleDefinition } from './format.ts';

export interface CompiledAction {
  index: number;
  definition: ActionDefinition;
  /** Field path (`to`, `headers.Authorization`) → compiled expression. */
  expressions: Map<string, CompiledExpression>;
}

export interface CompiledRule {
  name: string;
  file: string;
  definition: RuleDefinition;
  when: CompiledExpression | null;
  actions: CompiledAction[];
}

export interface RuleLoadError {
  file: string;
  rule?: string;
  message: string;
}

export interface RuleSet {
  dir: string;
  rules: CompiledRule[];
  errors: RuleLoadError[];
  loadedAt: Date;
}

class RuleFileError extends Error {
  constructor(
    message: string,
    readonly rule?: string,
  ) {
    super(message);
  }
}

function firstIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]!;
  const where = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return `${where || 'rule'}: ${issue.message}`;
}

function compileField(rule: string, field: string, text: string): CompiledExpression {
  try {
    return compileExpression(text);
  } catch (err) {
    throw new RuleFileError(`${field}: ${(err as Error).message} in expression ${JSON.stringify(text)}`, rule);
  }
}

function compileRule(definition: RuleDefinition, file: string): CompiledRule {
  const actions = definition.actions.map((action, index) => {
    const expressions = new Map<string, CompiledExpression>();
    const fields = action as unknown as Record<string, unknown>;
    for (const field of EXPRESSION_FIELDS[action.type]) {
      const text = fields[field];
      if (typeof text === 'string') expressions.set(field, compileField(definition.name, `actions.${index}.${field}`, text));
    }
    if (action.type === 'http') {
      for (const [header, text] of Object.entries(action.headers)) {
        expressions.set(`headers.${header}`, compileField(definition.name, `actions.${index}.headers.${header}`, text));
      }
    }
    return { index, definition: action, expressions };
  });
  const when = definition.when ? compileField(definition.name, 'when', definition.when) : null;
  return { name: definition.name, file, definition, when, actions };
}

/** Parses and compiles one file; throws RuleFileError naming the rule and field at fault. */
export function loadRuleFile(file: string): CompiledRule[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new RuleFileError(`not valid JSON: ${(err as Error).message}`);
  }
  const items = Array.isArray(json) ? json : [json];
  if (items.length === 0) throw new RuleFileError('the file holds no rule');
  return items.map((item, i) => {
    const prefix = Array.isArray(json) ? String(i) : '';
    const parsed = RuleSchema.safeParse(item);
    const name = (item as { name?: unknown })?.name;
    if (!parsed.success) throw new RuleFileError(firstIssue(parsed.error, prefix), typeof name === 'string' ? name : undefined);
    return compileRule(parsed.data, file);
  });
}

export function loadRuleSet(dir: string, now: Date = new Date()): RuleSet {
  const set: RuleSet = { dir, rules: [], errors: [], loadedAt: now };
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.endsWith('.test.json')).sort();
  } catch (err) {
    set.errors.push({ file: dir, message: `rules folder unreadable: ${(err as Error).message}` });
    return set;
  }
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const rules = loadRuleFile(file);
      const clash = rules.find((r) => seen.has(r.name));
      if (clash) throw new RuleFileError(`rule name already used in ${seen.get(clash.name)}`, clash.name);
      for (const r of rules) seen.set(r.name, file);
      set.rules.push(...rules);
    } catch (err) {
      const e = err as RuleFileError;
      set.errors.push({ file, ...(e.rule ? { rule: e.rule } : {}), message: e.message });
    }
  }
  return set;
}

/** A rule that loads but names a source GATEWAY_CONFIG does not define: it can never run for it. */
export interface RuleSourceWarning {
  file: string;
  rule: string;
  source: string;
  message: string;
}

export function unconfiguredSources(set: RuleSet, configured: Iterable<string>): RuleSourceWarning[] {
  const known = new Set(configured);
  return set.rules.flatMap((r) =>
    (r.definition.sources ?? [])
      .filter((s) => s !== '*' && !known.has(s))
      .map((source) => ({ file: r.file, rule: r.name, source, message: `source ${JSON.stringify(source)} is not configured in GATEWAY_CONFIG` })),
  );
}

/** One line per error or warning, for logs and the CLI. */
export function formatLoadError(e: RuleLoadError | RuleSourceWarning): string {
  return `${e.file}${e.rule ? ` (rule ${e.rule})` : ''}: ${e.message}`;
}
