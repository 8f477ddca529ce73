import { describe, expect, it } from 'vitest';
import { answersAfter, chainedChanges } from '../../src/engine-runtime/tasks/guidance.js';
import { isResolveRequest } from '../../src/carts/dto/preview-configuration.dto.js';

describe('the answers a resolution leads to', () => {
  const answers = {
    size: { values: ['s'] },
    top: { values: ['pine'] },
    extras: { values: ['drawer', 'lamp'] },
  };

  it('applies each change, drops an answer changed to nothing, keeps the others', () => {
    expect(
      answersAfter(answers, [
        { question: 'top', from: ['pine'], to: [] },
        { question: 'size', from: ['s'], to: ['l'] },
        { question: 'legs', from: [], to: [4] },
      ]),
    ).toEqual({
      size: { values: ['l'] },
      extras: { values: ['drawer', 'lamp'] },
      legs: { values: [4] },
    });
    // The input is left as it was.
    expect(answers.top).toEqual({ values: ['pine'] });
  });

  it('chains two resolutions per question: first from, last to; no change where it ends where it began', () => {
    expect(
      chainedChanges(
        [
          { question: 'top', from: ['pine'], to: [] },
          { question: 'size', from: ['s'], to: ['l'] },
        ],
        [
          { question: 'top', from: [], to: ['oak'] },
          { question: 'size', from: ['l'], to: ['s'] },
          { question: 'finish', from: [], to: ['oiled'] },
        ],
      ),
    ).toEqual([
      { question: 'top', from: ['pine'], to: ['oak'] },
      { question: 'finish', from: [], to: ['oiled'] },
    ]);
  });

  it('takes `resolve` as true or {question, value} with one answer value, nothing else', () => {
    for (const good of [true, { question: 'top', value: 'oak' }, { question: 'n', value: 3 }])
      expect(isResolveRequest(good)).toBe(true);
    for (const bad of [
      false,
      null,
      'top',
      [],
      { question: 'top' },
      { question: '', value: 'oak' },
      { question: 'top', value: null },
      { question: 'top', value: Number.NaN },
      { question: 'top', value: ['oak'] },
      { question: 'top', value: 'oak', more: 1 },
    ])
      expect(isResolveRequest(bad)).toBe(false);
  });
});
