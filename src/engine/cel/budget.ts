/**
 * The runtime cost budget of one evaluation (docs/model-format.md "Expression cost"). Each
 * expression is charged its static worst-case cost (cel/cost.ts) before it runs; one
 * that no longer fits does not run, yields unknown and is recorded, so an evaluation
 * never does more than `limit` units of expression work. Deterministic: the same
 * answers always exhaust the budget at the same expression.
 */
export class CostBudget {
  private remaining: number;
  /** Paths of the expressions refused for lack of budget, in evaluation order. */
  readonly exhausted: string[] = [];

  constructor(readonly limit: number) {
    this.remaining = limit;
  }

  /** Takes `cost` units; false (and the path recorded once) when they are not left. */
  charge(cost: number, path: string): boolean {
    if (cost <= this.remaining) {
      this.remaining -= cost;
      return true;
    }
    if (!this.exhausted.includes(path)) this.exhausted.push(path);
    return false;
  }

  get spent(): number {
    return this.limit - this.remaining;
  }

  /** The budget's state now, for `rewind`. */
  mark(): BudgetMark {
    return { remaining: this.remaining, exhausted: this.exhausted.length };
  }

  /** Back to a mark: work redone after it (a value phase run again) is charged once. */
  rewind(mark: BudgetMark): void {
    this.remaining = mark.remaining;
    this.exhausted.length = mark.exhausted;
  }
}

export interface BudgetMark {
  readonly remaining: number;
  readonly exhausted: number;
}

/** A budget nothing can exhaust, for contexts outside an evaluation (tests, tools). */
export const unlimitedBudget = (): CostBudget => new CostBudget(Number.POSITIVE_INFINITY);
