import { describe, expect, it } from 'vitest';
import { compileOk, compileProblems, evaluate, expectProblem, model } from '../helpers.js';

/** Two numbers, a variable shown to buyers with a unit, one only for the rules. */
const document = () =>
  model({
    questions: [
      { key: 'width', type: 'integer', label: 'Width' },
      { key: 'height', type: 'integer', label: 'Height' },
    ],
    variables: [
      {
        key: 'area_m2',
        expr: 'width * height / 1000000.0',
        label: 'Glass area',
        unit: 'm²',
        display: true,
      },
      { key: 'large', expr: 'area_m2 > 2.0', label: 'Large' },
    ],
    translation: {
      de: { 'variables.area_m2.label': 'Glasfläche' },
    },
  });

describe('variables marked for display', () => {
  it('lists only the displayed ones, with label, unit and the value of `variables`', () => {
    const line = evaluate(compileOk(document()), { width: 1200, height: 1000 }).line;
    expect(line.displayed_variables).toEqual([
      { key: 'area_m2', label: 'Glass area', value: 1.2, unit: 'm²' },
    ]);
    expect(line.variables).toMatchObject({ area_m2: 1.2, large: false });
  });

  it('translates the label, reports the missing unit, and keeps a value that cannot be computed null', () => {
    const line = evaluate(compileOk(document()), { width: 1200 }, { languageCode: 'de' }).line;
    expect(line.displayed_variables).toEqual([
      { key: 'area_m2', label: 'Glasfläche', value: null, unit: 'm²' },
    ]);
    expect(line.translation.missing).toContain('variables.area_m2.unit');
    expect(line.translation.missing).not.toContain('variables.large.label');
  });

  it('has none when no variable is displayed', () => {
    const plain = model({
      questions: [{ key: 'width', type: 'integer', label: 'Width' }],
      variables: [{ key: 'twice', expr: 'width * 2' }],
    });
    expect(evaluate(compileOk(plain), { width: 3 }).line.displayed_variables).toEqual([]);
  });

  it('refuses a displayed variable without a label, and a display that is not a boolean', () => {
    const missingLabel = model({
      questions: [{ key: 'width', type: 'integer', label: 'Width' }],
      variables: [{ key: 'twice', expr: 'width * 2', display: true }],
    });
    expectProblem(compileProblems(missingLabel), 'required', 'variables[0].label');
    const notBoolean = model({
      questions: [{ key: 'width', type: 'integer', label: 'Width' }],
      variables: [{ key: 'twice', expr: 'width * 2', label: 'Twice', display: 'yes' }],
    });
    expectProblem(compileProblems(notBoolean), 'invalid_type', 'variables[0].display');
  });
});
