import type { ASTNode } from '@marcbachmann/cel-js';
import { jsonTextDepthExceeds } from '../source/depth.js';
import { receiverCalls } from './regex.js';

/**
 * `bytes.json()` with a bounded nesting (docs/ENGINE.md "Expression cost"). cel-js parses
 * with `JSON.parse`, and every later operator or function on the value finds its runtime
 * type by walking its first elements down (`debugTypeDeep`) and, the first time, parses a
 * type name per level (`list<list<…>>`): quadratic in the depth (a 2,000-deep `[[…]]`
 * took 225 ms, and the names stay cached in the model's environment). So, like `matches`
 * (regex.ts), every `json` call node of a checked AST gets a handler that refuses a
 * document nested deeper than JSON_MAX_DEPTH before parsing it (the call fails: the
 * expression is unknown) and otherwise does exactly what cel-js does. The static shape of
 * the result (cost.ts `jsonShape`) describes these levels.
 */
export const JSON_MAX_DEPTH = 32;

class JsonDepthError extends Error {}

/**
 * Points every `json` call node of a checked AST at the bounded parse. Returns false when
 * a node does not look as expected (a cel-js upgrade changed its internals): the
 * expression is then refused rather than left unbounded.
 */
export function useBoundedJson(root: ASTNode): boolean {
  for (const call of receiverCalls(root, 'json')) {
    if (typeof call.handle !== 'function') return false;
    call.handle = (values: unknown[]): unknown => {
      const [bytes] = values;
      if (!(bytes instanceof Uint8Array) || values.length !== 1)
        throw new JsonDepthError('json needs bytes');
      // As cel-js (functions.js `jsonParse`): the text of a Buffer is its UTF-8 decoding.
      const text = String(bytes);
      if (jsonTextDepthExceeds(text, JSON_MAX_DEPTH))
        throw new JsonDepthError(`JSON nested deeper than ${JSON_MAX_DEPTH} levels`);
      return JSON.parse(text) as unknown;
    };
  }
  return true;
}
