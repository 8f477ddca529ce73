import type { Expression } from '../cel/expression.js';
import type { CompiledRule } from '../model-core.js';
import type { ModelCore } from '../model-core.js';
import type { FiniteDomain } from './domains.js';

/** Inputs of an expression: the finite questions it reads (through variables too). */
export type Support = ReadonlySet<number>;

/**
 * One piece of the finite part (docs/model-format.md "Consistency: no dead ends"):
 * - `status`: a question's visibility, required and selection bounds;
 * - `available`: an option's available_if (chosen ⇒ not false);
 * - `assert`: an `error` rule (applies ⇒ assert not false);
 * - `table`: an `allowed` table (applies ⇒ some row matches; no-value columns match);
 * - `logic`: an `error` clause or cardinality rule (applies ⇒ its bound holds).
 */
export type Part =
  | {
      kind: 'status';
      question: number;
      inputs: Support;
      source: string;
      /** visible_if is in the finite part (else the question may be hidden or not). */
      visibleKnown: boolean;
      /** required is a literal or in the finite part (else: not required, as when unknown). */
      requiredKnown: boolean;
    }
  | { kind: 'available'; question: number; option: number; inputs: Support; source: string }
  | { kind: 'assert'; rule: CompiledRule; inputs: Support; source: string }
  | { kind: 'table'; rule: CompiledRule; inputs: Support; source: string }
  | { kind: 'logic'; rule: CompiledRule; inputs: Support; source: string };

export interface FinitePart {
  readonly parts: Part[];
  /** Why some of the finite part stayed out (past the enumeration bound…); empty: none. */
  readonly left: string[];
}

/**
 * Finds the finite part of a model: every expression that reads only finite
 * questions (directly or through variables) and whose inputs can be enumerated
 * within `enumerationLimit` assignments. Expressions reading number/text
 * questions are outside by definition; past the bound they stay outside and the
 * model is not exact.
 */
export function findFinitePart(
  model: ModelCore,
  domains: ReadonlyArray<FiniteDomain | undefined>,
  enumerationLimit: number,
): FinitePart {
  const supports = new SupportFinder(model, domains);
  const parts: Part[] = [];
  const left: string[] = [];
  const within = (inputs: Support, path: string, extra: readonly number[] = []): boolean => {
    let count = 1;
    for (const q of new Set([...inputs, ...extra])) count *= domainSize(domains[q] as FiniteDomain);
    if (count <= enumerationLimit) return true;
    left.push(`${path} needs ${count} assignments, past the bound ${enumerationLimit}`);
    return false;
  };
  /** Support, or undefined when outside the finite part (non-finite or too large). */
  const finite = (expression: Expression | undefined): Support | undefined =>
    expression === undefined ? new Set() : supports.of(expression);

  for (const question of model.questions) {
    if (domains[question.index] === undefined) continue;
    const path = `questions.${question.key}`;
    const visible = finite(question.visibleIf);
    const required =
      typeof question.required === 'boolean' ? new Set<number>() : finite(question.required);
    const inputs = new Set<number>([...(visible ?? []), ...(required ?? [])]);
    inputs.delete(question.index);
    if (within(inputs, path, [question.index]))
      parts.push({
        kind: 'status',
        question: question.index,
        inputs,
        source: path,
        visibleKnown: visible !== undefined,
        requiredKnown: required !== undefined,
      });
    question.options.forEach((option, o) => {
      if (option.availableIf === undefined) return;
      const optionInputs = finite(option.availableIf);
      const optionPath = `${path}.options.${option.key}`;
      if (optionInputs === undefined || !within(optionInputs, `${optionPath}.available_if`)) return;
      parts.push({
        kind: 'available',
        question: question.index,
        option: o,
        inputs: optionInputs,
        source: optionPath,
      });
    });
  }
  for (const rule of model.rules) {
    const path = `rules.${rule.key}`;
    const when = finite(rule.when);
    if (when === undefined) continue;
    if (rule.logic !== undefined) {
      if (rule.severity === 'error' && within(when, `${path}.when`))
        parts.push({ kind: 'logic', rule, inputs: when, source: path });
    } else if (rule.table !== undefined) {
      if (within(when, `${path}.when`))
        parts.push({ kind: 'table', rule, inputs: when, source: path });
    } else if (rule.assert !== undefined && rule.severity === 'error') {
      const assert = finite(rule.assert);
      if (assert === undefined) continue;
      const inputs = new Set([...when, ...assert]);
      if (within(inputs, path)) parts.push({ kind: 'assert', rule, inputs, source: path });
    }
  }
  return { parts, left };
}

export function domainSize(finite: FiniteDomain): number {
  return finite.kind === 'single' ? finite.values.length : 2 ** finite.options;
}

/** The finite questions an expression reads, through variables (undefined: reads a non-finite one). */
export class SupportFinder {
  private readonly variables = new Map<string, Support | undefined>();

  constructor(
    private readonly model: ModelCore,
    private readonly domains: ReadonlyArray<FiniteDomain | undefined>,
  ) {
    // Variables in the value order: each one's inputs are known before it (no recursion,
    // so a chain of thousands of variables is fine).
    const questionCount = model.questions.length;
    for (const node of model.valueOrder) {
      const variable = model.variables[node - questionCount];
      if (node < questionCount || variable === undefined) continue;
      this.variables.set(variable.key, this.names(variable.expr.names));
    }
  }

  of(expression: Expression): Support | undefined {
    return this.names(expression.names);
  }

  /** The support of a variable by key (undefined: reads a non-finite question). */
  ofVariable(key: string): Support | undefined {
    return this.variables.get(key);
  }

  private names(names: readonly string[]): Support | undefined {
    const result = new Set<number>();
    for (const name of names) {
      const q = this.model.questionIndex.get(name);
      if (q !== undefined) {
        if (this.domains[q] === undefined) return undefined;
        result.add(q);
        continue;
      }
      const inner = this.variables.get(name);
      if (inner === undefined) return undefined;
      for (const input of inner) result.add(input);
    }
    return result;
  }
}
