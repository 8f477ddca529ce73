import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { indexTable } from '../../../src/engine/validate/table-index.js';
import { evaluate } from '../../../src/engine/work.js';
import type { CompiledQuestion } from '../../../src/engine/model.js';
import { MinorSum, minorUnits, minorUnitsOfText, Money } from '../../../src/engine/money.js';
import { compileOk, model } from '../helpers.js';

describe('money in minor units', () => {
  it('reads formatted amounts and gives NaN beyond safe integers', () => {
    expect(minorUnitsOfText('12.50')).toBe(1250);
    expect(minorUnitsOfText('-0.05')).toBe(-5);
    expect(minorUnitsOfText('7')).toBe(7);
    expect(minorUnitsOfText('1234567890123.45')).toBe(123456789012345);
    expect(minorUnitsOfText('12345678901234.56')).toBeNaN();
    expect(minorUnits(new Money('3.10'), 2)).toBe(310);
    expect(minorUnits(new Money('3.105'), 2)).toBeNaN();
    expect(minorUnits(new Money('1e20'), 2)).toBeNaN();
  });

  it('sums exactly, switching to decimal.js when an addend or the sum is not safe', () => {
    const sum = new MinorSum(2);
    sum.add(110, new Money('1.10'));
    sum.add(-5, new Money('-0.05'));
    expect(sum.total.toFixed(2)).toBe('1.05');
    const big = new Money('90000000000000.00');
    sum.add(minorUnits(big, 2), big);
    sum.add(minorUnits(big, 2), big);
    expect(sum.total.toFixed(2)).toBe('180000000000001.05');
    expect(new MinorSum(2).total.isZero()).toBe(true);
  });
});

describe('compatibility table index', () => {
  it('lists, per option of each column, the rows holding it', () => {
    const choice = (key: string, options: string[]) =>
      ({ key, options: options.map((option) => ({ key: option })) }) as unknown as CompiledQuestion;
    const questions = [choice('a', ['x', 'y', 'z']), choice('b', ['p', 'q'])];
    const table = indexTable(
      [0, 1],
      [
        ['x', 'p'],
        ['y', 'p'],
        ['x', 'q'],
      ],
      questions,
    );
    const rowsOf = (column: number, option: number): number[] => {
      const entry = table.offers[column] + option;
      return [...table.offers.subarray(table.offers[entry], table.offers[entry + 1])];
    };
    expect(table.rowCount).toBe(3);
    expect(table.cells).toEqual(['x', 'p', 'y', 'p', 'x', 'q']);
    expect([rowsOf(0, 0), rowsOf(0, 1), rowsOf(0, 2)]).toEqual([[0, 2], [1], []]);
    expect([rowsOf(1, 0), rowsOf(1, 1)]).toEqual([[0, 1], [2]]);
  });
});

describe('fingerprint of answers already in canonical order', () => {
  it('equals the sha256 of the sorted canonical JSON, whatever the insertion order', () => {
    const compiled = compileOk(model());
    const fp = (questions: unknown) =>
      evaluate(compiled, { modelId: 1, versionNumber: 2, questions }).line.cache.fingerprint;
    const sorted = { a: { values: ['x'] }, b: { values: [1, true] }, c: { values: [] } };
    const reversed = { c: { values: [] }, b: { values: [1, true] }, a: { values: ['x'] } };
    const canonical = JSON.stringify([1, 2, sorted, 'en']);
    const language = evaluate(compiled, {
      modelId: 1,
      versionNumber: 2,
      questions: {},
    }).line.translation.language;
    expect(language).toBe('en');
    expect(fp(sorted)).toBe(createHash('sha256').update(canonical).digest('hex'));
    expect(fp(reversed)).toBe(fp(sorted));
  });
});
