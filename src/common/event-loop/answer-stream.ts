import { Readable } from 'node:stream';
import { SliceClock, type Slicing } from '../../engine/index.js';
import { ByteWriter, type SerializedJson } from './byte-writer.js';
import { writeInSlices } from './sliced-json.js';

/** An answer too large to hold: its bytes as they are written, pulled by the response. */
export interface StreamedJson {
  stream: Readable;
}

/** Chunks the stream keeps ready before the response asks for more (backpressure). */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/**
 * `value` written as serializeInSlices writes it (with `digest` when asked), unless its
 * bytes pass `streamAbove`: then the rest is written only as the returned stream is
 * read, so that an answer of hundreds of megabytes (a page of 50 lines of a
 * 5,000-question model is ~215 MB) is never held whole. A streamed answer has no
 * digest: its headers go before its last byte is known.
 */
export async function serializeAnswer(
  value: unknown,
  slicing: Slicing,
  options: { digest: boolean; streamAbove: number },
): Promise<SerializedJson | StreamedJson> {
  const out = new ByteWriter();
  const clock = new SliceClock(slicing);
  const steps = writeInSlices(value, out, clock);
  let streaming = false;
  try {
    while (!(await steps.next()).done) {
      if (out.byteLength > options.streamAbove) {
        streaming = true;
        const stream = Readable.from(streamRest(out, steps, clock), {
          objectMode: false,
          highWaterMark: STREAM_HIGH_WATER_BYTES,
        });
        return { stream };
      }
    }
    return await out.finish(clock, options.digest);
  } finally {
    if (!streaming) clock.end();
  }
}

/** The bytes made so far, then the rest as it is written; stopped early, it stops writing. */
async function* streamRest(
  out: ByteWriter,
  steps: AsyncGenerator<void, void>,
  clock: SliceClock,
): AsyncGenerator<Buffer, void> {
  try {
    yield* out.take();
    while (!(await steps.next()).done) yield* out.take();
    yield* out.take(true);
  } finally {
    await steps.return();
    clock.end();
  }
}
