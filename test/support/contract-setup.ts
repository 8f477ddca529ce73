import { afterAll, expect } from 'vitest';
import { contractViolations, recorded } from './response-recorder.js';

// The final check of every test file: no answer its test apps gave broke openapi.json
// (undocumented status, or a body outside the closed schema). See response-recorder.ts.
afterAll(() => {
  if (process.env.CONTRACT_VERBOSE) console.warn(`${recorded.count} answers checked`);
  expect(contractViolations, 'answers that break openapi.json').toEqual([]);
});
