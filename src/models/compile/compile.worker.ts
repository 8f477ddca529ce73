import { move, transferableSymbol, valueSymbol } from 'piscina';
import { runTask, type BuildTask, type CompileTask } from './build-model.js';

/**
 * The compile worker's entry (piscina `filename`): reads, validates, type-checks,
 * estimates and compiles off the event loop. The compiled model comes back as bytes,
 * moved rather than copied (reviving it is sliced on the main thread).
 */
export default async function compileInWorker(task: BuildTask | CompileTask): Promise<unknown> {
  const outcome = await runTask(task);
  if (outcome.kind !== 'built' && outcome.kind !== 'compiled') return outcome;
  const buffers: ArrayBuffer[] = [];
  const transferred = (bytes: Uint8Array): Uint8Array => {
    const own = owned(bytes);
    buffers.push(own.buffer as ArrayBuffer);
    return own;
  };
  const moved =
    outcome.kind === 'built'
      ? {
          ...outcome,
          compiled: transferred(outcome.compiled),
          definition: transferred(outcome.definition),
          consistency: transferred(outcome.consistency),
        }
      : {
          ...outcome,
          compiled: transferred(outcome.compiled),
          ...(outcome.consistency ? { consistency: transferred(outcome.consistency) } : {}),
        };
  // piscina transfers the buffers of a top-level Transferable instead of cloning them.
  return move({
    get [transferableSymbol]() {
      return buffers;
    },
    get [valueSymbol]() {
      return moved;
    },
  });
}

/** The bytes in an ArrayBuffer of their own (a pooled Buffer's cannot be transferred). */
function owned(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}
