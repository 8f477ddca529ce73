import { Expression } from '../cel/expression.js';
import { TextCatalogBuilder } from './text-catalog.js';
import type { EngineLimits } from '../limits.js';
import type { ProblemList } from '../problems.js';
import { childPath, type JsonRecord, Reader } from './reader.js';

/** Shared state of one model's validation: problems, expressions found, texts found. */
export class Validation extends Reader {
  readonly expressions: Expression[] = [];
  readonly texts = new TextCatalogBuilder();

  constructor(problems: ProblemList, limits: EngineLimits) {
    super(problems, limits);
  }

  /** Reads a CEL expression member and registers it for compilation. */
  expr(record: JsonRecord, key: string, path: string, required = false): Expression | undefined {
    const source = this.expression(record, key, path, required);
    return source === undefined ? undefined : this.register(source.source, source.path);
  }

  exprText(source: string, path: string): Expression | undefined {
    const checked = this.expressionText(source, path);
    return checked === undefined ? undefined : this.register(checked.source, checked.path);
  }

  private register(source: string, path: string): Expression {
    const expression = Expression.draft(source, path);
    this.expressions.push(expression);
    return expression;
  }

  /** Each element of a list member that is a record, with its path; reports the others. */
  *records(list: readonly unknown[], path: string): Generator<[JsonRecord, string]> {
    for (let i = 0; i < list.length; i++) {
      const itemPath = childPath(path, i);
      const item = this.record(list[i], itemPath);
      if (item !== undefined) yield [item, itemPath];
    }
  }
}
