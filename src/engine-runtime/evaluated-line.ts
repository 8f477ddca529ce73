import type { Problem } from '../engine/index.js';
import type { SentLine } from './tasks/engine-tasks.js';

/**
 * An evaluated line on the main thread: what its worker sent (its line's bytes, its
 * problems' JSON text), and its errors and warnings as objects, parsed when first read.
 * A preview puts the problems' text into its answer as it is (`problems`); adding to a
 * cart reads the warnings, an invalid line its errors.
 */
export interface EvaluatedLine extends SentLine {
  readonly errors: Problem[];
  readonly warnings: Problem[];
}

export function receivedLine(sent: SentLine): EvaluatedLine {
  let parsed: { errors: Problem[]; warnings: Problem[] } | undefined;
  const problems = () =>
    (parsed ??= JSON.parse(`{${bytesOf(sent.problems).toString('utf8')}}`) as {
      errors: Problem[];
      warnings: Problem[];
    });
  return {
    ...sent,
    get errors() {
      return problems().errors;
    },
    get warnings() {
      return problems().warnings;
    },
  };
}

/** The bytes as a Buffer, not copied. */
const bytesOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
