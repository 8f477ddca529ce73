import { Expression } from '../cel/expression.js';
import type { CompiledBomItem, ModelCore } from '../model-core.js';
import type { Expectation } from './expressions.js';

type Sections = Pick<
  ModelCore,
  'questions' | 'rules' | 'triggers' | 'bomItems' | 'pricing' | 'images'
>;

/**
 * Every expression outside the variables with the type it must have. Variables are
 * typed by inference instead (in dependency order).
 */
export function expectations(model: Sections): Array<[Expression, Expectation]> {
  const found: Array<[Expression, Expectation]> = [];
  const add = (expression: Expression | undefined, expectation: Expectation): void => {
    if (expression !== undefined) found.push([expression, expectation]);
  };
  for (const question of model.questions) {
    if (typeof question.required !== 'boolean') add(question.required, 'bool');
    add(question.visibleIf, 'bool');
    add(question.defaultExpr, { question: question.type });
    for (const option of question.options) add(option.availableIf, 'bool');
  }
  for (const rule of model.rules) {
    add(rule.when, 'bool');
    add(rule.assert, 'bool');
  }
  for (const trigger of model.triggers) {
    add(trigger.when, 'bool');
    for (const target of trigger.targets)
      add(target.expr, { question: model.questions[target.question].type });
  }
  const addBom = (items: readonly CompiledBomItem[]): void => {
    for (const item of items) {
      add(item.when, 'bool');
      if (item.quantity instanceof Expression) add(item.quantity, 'number');
      add(item.priceExpr, 'number');
      addBom(item.children);
    }
  };
  addBom(model.bomItems);
  for (const adjustment of model.pricing.adjustments) {
    add(adjustment.when, 'bool');
    add(adjustment.expr, 'number');
  }
  for (const image of model.images) add(image.when, 'bool');
  return found;
}
