import {
  conditionOr,
  EvaluationContext,
  failedWithInputs,
  UNKNOWN,
  type Expression,
} from '../cel/expression.js';
import type { CompiledQuestion, LogicalRule } from '../model-core.js';
import type { ModelCore } from '../model-core.js';
import { domainIndex, type FiniteDomain, type LayerPlan, questionValue } from './domains.js';
import { logicDiagram } from './logic-diagram.js';
import { FALSE, type MddStore, TRUE } from './mdd.js';
import type { Part, Support } from './parts.js';
import { type TableColumn, tableDiagram } from './table-diagram.js';

/**
 * Turns each part of the finite part into a diagram over all layers: expressions by
 * enumerating their inputs' domains (bounded before, in parts.ts), tables row by
 * row with "no value" matching every row.
 */
export class PartBuilder {
  private readonly context = new EvaluationContext();
  private readonly assignment: Int32Array;
  /** Per variable: its position in the value order. */
  private readonly variablePosition: Int32Array;
  private readonly variableIndex = new Map<string, number>();
  /** Table columns left out because their question is not finite (the model is then not exact). */
  readonly left: string[] = [];
  /** Sources of parts only partly in the diagram (a table with a non-finite column). */
  readonly partial = new Set<string>();
  /** Assignments enumerated so far (the deadline is checked every ENUMERATION_CHECK). */
  private enumerated = 0;

  constructor(
    private readonly model: ModelCore,
    private readonly plan: LayerPlan,
    private readonly store: MddStore,
  ) {
    for (const question of model.questions) this.context.set(question.key, null);
    for (const variable of model.variables) this.context.set(variable.key, null);
    this.assignment = new Int32Array(plan.domain.length);
    const questionCount = model.questions.length;
    this.variablePosition = new Int32Array(model.variables.length);
    model.valueOrder.forEach((node, position) => {
      const variable = node - questionCount;
      if (variable >= 0 && variable < model.variables.length)
        this.variablePosition[variable] = position;
    });
    for (const variable of model.variables) this.variableIndex.set(variable.key, variable.index);
  }

  /** The variables the expressions read, directly or through other variables, in value order. */
  private variablesRead(expressions: ReadonlyArray<Expression | boolean | undefined>): number[] {
    const found = new Set<number>();
    const pending: string[] = [];
    for (const expression of expressions)
      if (typeof expression === 'object') pending.push(...expression.names);
    while (pending.length > 0) {
      const index = this.variableIndex.get(pending.pop() as string);
      if (index === undefined || found.has(index)) continue;
      found.add(index);
      pending.push(...this.model.variables[index].expr.names);
    }
    return [...found].sort((a, b) => this.variablePosition[a] - this.variablePosition[b]);
  }

  build(part: Part): number {
    switch (part.kind) {
      case 'status':
        return this.status(part);
      case 'available':
        return this.available(part);
      case 'assert': {
        const { when, assert } = part.rule;
        return this.enumerate(
          this.layersOf(part.inputs),
          () => {
            if (when !== undefined && when.condition(this.context) !== true) return true;
            // As the evaluation's rules step: unknown holds unless no answer can change it.
            const holds = (assert as Expression).condition(this.context);
            if (holds !== UNKNOWN) return holds;
            return !failedWithInputs(assert as Expression, this.context);
          },
          [when, assert],
        );
      }
      case 'table':
      case 'logic': {
        const table =
          part.kind === 'table'
            ? this.table(part)
            : logicDiagram(this.store, this.plan, part.rule.logic as LogicalRule);
        const when = part.rule.when;
        if (when === undefined) return table;
        const applies = this.enumerate(
          this.layersOf(part.inputs),
          () => when.condition(this.context) === true,
          [when],
        );
        return this.store.apply('or', this.store.not(applies), table);
      }
    }
  }

  /** Layers of a set of questions, ascending. */
  layersOf(questions: Iterable<number>, extra: readonly number[] = []): number[] {
    const layers = new Set<number>(extra);
    for (const q of questions) {
      const first = this.plan.firstLayer[q];
      for (let l = 0; l < this.plan.layerCount[q]; l++) layers.add(first + l);
    }
    return [...layers].sort((a, b) => a - b);
  }

  /**
   * The diagram of `accept` over the layers `scope` (ascending): every assignment of
   * them is enumerated; `accept` reads the context, which holds the questions' values.
   */
  enumerate(
    scope: readonly number[],
    accept: () => boolean,
    reads: ReadonlyArray<Expression | boolean | undefined>,
  ): number {
    const { store, assignment } = this;
    const domain = this.plan.domain;
    const touched = new Set(scope.map((layer) => this.plan.layerQuestion[layer]));
    const questions = [...touched].map((q) => this.model.questions[q]);
    const variables = this.variablesRead(reads);
    // Work per assignment: one step, plus the expressions' static cost (a step is worth
    // about STEP_COST_UNITS of it: an apply step and 100 cost units both take ~0.1-0.2 µs).
    let cost = 0;
    for (const read of reads) if (typeof read === 'object') cost += read.cost;
    for (const index of variables) cost += this.model.variables[index].expr.cost;
    const units = 1 + Math.floor(cost / STEP_COST_UNITS);
    const leaf = (): number => {
      // An all-TRUE (or all-FALSE) result creates no node, so 100,000 assignments of a
      // costly expression are charged here, and the deadline (the safety net) checked
      // every ENUMERATION_CHECK of them.
      store.charge(units);
      if (++this.enumerated % ENUMERATION_CHECK === 0) store.checkDeadline();
      this.load(questions, variables);
      return accept() ? TRUE : FALSE;
    };
    const step = (i: number): number => {
      if (i === scope.length) return leaf();
      const layer = scope[i];
      const children = new Int32Array(domain[layer]);
      for (let v = 0; v < children.length; v++) {
        assignment[layer] = v;
        children[v] = step(i + 1);
      }
      assignment[layer] = 0;
      return store.node(layer, children);
    };
    return step(0);
  }

  /** Sets the context from the assignment, then the variables expressions may read. */
  private load(questions: readonly CompiledQuestion[], variables: readonly number[]): void {
    for (const question of questions)
      this.context.set(question.key, questionValue(this.plan, question, this.assignment));
    for (const index of variables) {
      const variable = this.model.variables[index];
      const value = variable.expr.run(this.context);
      this.context.set(
        variable.key,
        typeof value === 'symbol' || value === undefined ? null : value,
      );
    }
  }

  private status(part: Extract<Part, { kind: 'status' }>): number {
    const question = this.model.questions[part.question];
    const statusOf = (): Status => {
      if (!part.visibleKnown) return 'free';
      if (!conditionOr(question.visibleIf, this.context, false)) return 'hidden';
      if (typeof question.required === 'boolean')
        return question.required ? 'required' : 'optional';
      if (!part.requiredKnown) return 'optional';
      return conditionOr(question.required, this.context, false) ? 'required' : 'optional';
    };
    const reading = new Set(part.inputs);
    const own =
      typeof question.required !== 'boolean' && question.required.names.includes(question.key);
    if (own) reading.add(question.index);
    const scope = this.layersOf(reading);
    let result = FALSE;
    for (const status of STATUSES) {
      const when = this.enumerate(scope, () => statusOf() === status, [
        question.visibleIf,
        question.required,
      ]);
      if (when === FALSE) continue;
      result = this.store.apply(
        'or',
        result,
        this.store.apply('and', when, this.allowed(question, status)),
      );
    }
    return result;
  }

  /** The values a question may take in a status (multi_choice: how many are selected). */
  private allowed(question: CompiledQuestion, status: Status): number {
    const q = question.index;
    const first = this.plan.firstLayer[q];
    const finite = this.plan.domains[q] as FiniteDomain;
    if (finite.kind === 'single') {
      const children = new Int32Array(finite.values.length).fill(TRUE);
      if (status === 'hidden') children.fill(FALSE, 1);
      if (status === 'required') children[0] = FALSE;
      return this.store.node(first, children);
    }
    const k = finite.options;
    const min = Math.max(1, question.minSelected ?? 1);
    const max = Math.min(k, question.maxSelected ?? k);
    const ok = (count: number): boolean => {
      if (count === 0) return status !== 'required';
      return status !== 'hidden' && count >= min && count <= max;
    };
    // Counting diagram: state = options selected so far (capped at max + 1).
    let next = new Int32Array(max + 2);
    for (let c = 0; c <= max + 1; c++) next[c] = ok(c) ? TRUE : FALSE;
    for (let o = k - 1; o >= 0; o--) {
      const current = new Int32Array(max + 2);
      for (let c = 0; c <= max + 1; c++) {
        const children = [next[c], next[Math.min(c + 1, max + 1)]];
        current[c] = this.store.node(first + o, children);
      }
      next = current;
    }
    return next[0];
  }

  private available(part: Extract<Part, { kind: 'available' }>): number {
    const question = this.model.questions[part.question];
    const condition = question.options[part.option].availableIf as Expression;
    const first = this.plan.firstLayer[part.question];
    const multi = this.plan.domains[part.question]?.kind === 'multi';
    const layer = multi ? first + part.option : first;
    const chosen = multi ? 1 : part.option + 1;
    const scope = this.layersOf(part.inputs, [layer]);
    return this.enumerate(
      scope,
      () => this.assignment[layer] !== chosen || condition.condition(this.context) !== false,
      [condition],
    );
  }

  /** Row-matching diagram of an `allowed` table: a no-value column matches every row. */
  private table(part: Extract<Part, { kind: 'table' }>): number {
    const table = part.rule.table;
    if (table === undefined) return TRUE;
    const width = table.columns.length;
    const columns: TableColumn[] = [];
    for (let c = 0; c < width; c++) {
      const q = table.columns[c];
      if (this.plan.domains[q] === undefined) {
        this.left.push(`${part.source}: column ${this.model.questions[q].key} is not finite`);
        this.partial.add(part.source);
        continue;
      }
      const cells = new Int32Array(table.rowCount);
      for (let r = 0; r < table.rowCount; r++)
        cells[r] = domainIndex(this.model.questions[q], table.cells[r * width + c]);
      columns.push({ layer: this.plan.firstLayer[q], cells });
    }
    columns.sort((a, b) => a.layer - b.layer);
    return tableDiagram(this.store, columns, table.rowCount);
  }
}

/**
 * Assignments between two deadline checks of an enumeration: one `performance.now()` per
 * 16 evaluations is noise next to them, and 16 of the costliest expressions (1,000,000
 * units, ~1.4 ms each measured) overrun the deadline by some 25 ms.
 */
const ENUMERATION_CHECK = 16;

/** Expression cost units (cel/cost.ts) charged as one step of compile work. */
const STEP_COST_UNITS = 100;

type Status = 'hidden' | 'optional' | 'required' | 'free';
const STATUSES: readonly Status[] = ['hidden', 'optional', 'required', 'free'];

export type { Support };
