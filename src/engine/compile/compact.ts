import { Expression } from '../cel/expression.js';
import type {
  CompatibilityTable,
  CompiledBomItem,
  CompiledModel,
  CompiledOption,
  CompiledQuestion,
} from '../model.js';

/** A fresh copy of an optional expression (undefined stays undefined). */
function x<T extends Expression | undefined>(expression: T): T {
  return (expression === undefined ? undefined : expression.clone()) as T;
}

/**
 * Re-allocates everything an evaluation walks (questions, options, expressions,
 * tables, BOM items…) in one pass at the end of the compile, so that it sits
 * together in memory instead of being interleaved with the parser's garbage.
 * Measured on the 1,000-question generated model: evaluation about twice as fast,
 * because the model no longer fits the CPU caches and locality decides.
 */
export function compactModel(model: CompiledModel): CompiledModel {
  const questions = model.questions.map(compactQuestion);
  return {
    ...model,
    questionIndex: new Map(model.questionIndex),
    questions,
    optionConditions: model.optionConditions.map((question) => questions[question.index]),
    variables: model.variables.map((variable) => ({ ...variable, expr: variable.expr.clone() })),
    rules: model.rules.map((rule) => ({
      ...rule,
      when: x(rule.when),
      assert: x(rule.assert),
      table: rule.table === undefined ? undefined : compactTable(rule.table),
    })),
    triggers: model.triggers.map((trigger) => ({
      ...trigger,
      when: trigger.when.clone(),
      targets: trigger.targets.map((target) => ({ ...target, expr: x(target.expr) })),
    })),
    bomItems: compactBom(model.bomItems),
    pricing: {
      ...model.pricing,
      adjustments: model.pricing.adjustments.map((a) => ({
        ...a,
        when: x(a.when),
        expr: x(a.expr),
      })),
    },
    images: model.images.map((image) => ({ ...image, when: x(image.when) })),
  };
}

function compactQuestion(question: CompiledQuestion): CompiledQuestion {
  return {
    ...question,
    required:
      typeof question.required === 'boolean' ? question.required : question.required.clone(),
    visibleIf: x(question.visibleIf),
    defaultExpr: x(question.defaultExpr),
    options: question.options.map((option): CompiledOption => ({
      ...option,
      availableIf: x(option.availableIf),
    })),
    optionIndex: new Map(question.optionIndex),
    triggers: [...question.triggers],
    tableRules: [...question.tableRules],
  };
}

function compactTable(table: CompatibilityTable): CompatibilityTable {
  return {
    columns: [...table.columns],
    rows: table.rows.map((row) => [...row]),
    rowsByCell: table.rowsByCell.map((index) => new Map(index)),
  };
}

function compactBom(items: readonly CompiledBomItem[]): CompiledBomItem[] {
  return items.map((item) => ({
    ...item,
    when: x(item.when),
    quantity: item.quantity instanceof Expression ? item.quantity.clone() : item.quantity,
    priceExpr: x(item.priceExpr),
    children: compactBom(item.children),
  }));
}
