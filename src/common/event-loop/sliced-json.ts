import { Readable } from 'node:stream';
import { holdsLineQuestions, isMeasuredMember, lineListJson } from '../../engine/runtime.js';
import { SliceClock, type Slicing } from './slice-clock.js';
import { JsonText } from '../http/json-text.js';
import { ByteWriter, type SerializedJson } from './byte-writer.js';
import { DeferredJson } from './deferred-json.js';

/**
 * Arrays and plain objects above this depth are written member by member (a pause may
 * come between two members); at it, `JSON.stringify` writes them. A cart line's bulk is
 * its questions at depth 3 (envelope → data → questions → one question).
 */
const SPLIT_DEPTH = 3;

/**
 * Elements of an array at the split depth written by one `JSON.stringify`: much faster
 * than one call per element, and a group's text is turned into bytes while small (see
 * docs/adr/0046-event-loop-slicing.md).
 */
const GROUP = 64;

/** An array or object being written: its members, and the next one's index. */
interface Frame {
  value: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  next: number;
  depth: number;
  /** Whether a member was written already (a comma goes before the next). */
  wrote: boolean;
}

/** A DeferredJson met, and how to write its value in its place once it has one. */
interface Awaiting {
  deferred: DeferredJson;
  write: (value: unknown) => boolean;
}

/** An answer too large to hold: its bytes as they are written, pulled by the response. */
export interface StreamedJson {
  stream: Readable;
}

/** Chunks a streamed answer keeps ready before the response asks for more. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, written in slices with a pause once
 * `sliceMs` have passed, so that a multi-megabyte answer (a 5,000-question line) does not
 * hold the event loop for its whole serialization. Small values are written without
 * pausing. Values with `toJSON` (dates), boxed primitives, maps and the like are left to
 * `JSON.stringify` whole; a DeferredJson element is resolved when reached and written as
 * its value. Iterative (an explicit stack), no generator per member.
 *
 * `digest`: also the SHA-1 of the bytes, taken in the same slices (an ETag: express would
 * hash tens of megabytes at once), without the engine's measurements in a line it opens
 * (`isMeasuredMember`: two reads of an unchanged cart get the same ETag).
 * `streamAbove`: once the bytes pass it, the rest is written only as the returned stream
 * is read (backpressure), so that an answer of hundreds of megabytes (50 lines of a
 * 5,000-question model are ~215 MB) is never held whole; a streamed answer has no digest,
 * its headers go before its last byte exists.
 */
export async function serializeInSlices(
  value: unknown,
  slicing: Slicing,
  options: { digest?: boolean; streamAbove?: number } = {},
): Promise<SerializedJson | StreamedJson> {
  const { digest = false, streamAbove = Number.POSITIVE_INFINITY } = options;
  const out = new ByteWriter();
  const clock = new SliceClock(slicing);
  const steps = writeInSlices(value, out, clock);
  let streaming = false;
  try {
    while (!(await steps.next()).done) {
      if (out.byteLength > streamAbove) {
        streaming = true;
        const stream = Readable.from(streamRest(out, steps, clock), {
          objectMode: false,
          highWaterMark: STREAM_HIGH_WATER_BYTES,
        });
        return { stream };
      }
    }
    return await out.finish(clock, digest);
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

/**
 * Writes `value` into `out`, pausing when `clock` says so; yields whenever `out` has
 * turned more text into bytes (a streamed answer hands those on as they come).
 */
async function* writeInSlices(
  value: unknown,
  out: ByteWriter,
  clock: SliceClock,
): AsyncGenerator<void, void> {
  if (!splittable(value)) {
    out.write(JSON.stringify(value) ?? 'null');
    return;
  }
  const stack: Frame[] = [open(value, 0, out)];
  let made = out.byteLength;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const step = writeNext(frame, stack, out);
    if (step === true) continue;
    if (step !== false) {
      // Other sliced work (this value's own evaluation) may run while it is made.
      clock.end();
      step.write(await step.deferred.resolve());
    }
    if (out.byteLength !== made) {
      made = out.byteLength;
      yield;
    }
    if (clock.due()) await clock.pause();
  }
}

/**
 * Writes the frame's next member (or group of elements), or closes the frame. Answers
 * true when that was cheap (punctuation, a skipped member, a frame opened) and the clock
 * need not be read, or the DeferredJson to resolve first.
 */
function writeNext(frame: Frame, stack: Frame[], out: ByteWriter): boolean | Awaiting {
  const { value: container, keys } = frame;
  const leaves = frame.depth + 1 >= SPLIT_DEPTH;
  if (keys === null) {
    const array = container as unknown[];
    if (frame.next >= array.length) {
      out.write(']');
      stack.pop();
      return true;
    }
    if (frame.wrote) out.write(',');
    frame.wrote = true;
    if (leaves) return writeGroup(frame, stack, out);
    const element = array[frame.next++];
    if (element instanceof DeferredJson)
      return { deferred: element, write: (value) => writeMember(value, frame, stack, out) };
    return writeMember(element, frame, stack, out);
  }
  if (frame.next >= keys.length) {
    out.write('}');
    stack.pop();
    return true;
  }
  const key = keys[frame.next++];
  const member = (container as Record<string, unknown>)[key];
  // Members JSON.stringify leaves out of an object.
  if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
    return true;
  out.write(`${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`);
  frame.wrote = true;
  if (isMeasuredMember(container, key)) {
    out.writeUnhashed(JSON.stringify(member));
    return false;
  }
  return writeMember(member, frame, stack, out);
}

/**
 * Up to GROUP elements of an array at the split depth. A cart line's lists come from the
 * engine's prepared text; other elements are written by one JSON.stringify (as an array,
 * "[a,b]": its elements are inside), except a cart line inside a larger answer (a page
 * of a cart's lines: 50 lines of 1,000 questions are 40 MB). That one is written as the
 * answer's own data is, member by member, so its questions are split as well.
 */
function writeGroup(frame: Frame, stack: Frame[], out: ByteWriter): boolean | Awaiting {
  const array = frame.value as unknown[];
  const start = frame.next;
  let end = Math.min(array.length, start + GROUP);
  const known = lineListJson(array, start, end);
  if (known !== undefined) {
    out.write(known);
    frame.next = end;
    return false;
  }
  const first = array[start];
  if (first instanceof DeferredJson) {
    frame.next++;
    return { deferred: first, write: (value) => writeElement(value, stack, out) };
  }
  if (holdsLineQuestions(first) && splittable(first)) {
    frame.next++;
    return writeElement(first, stack, out);
  }
  for (let i = start + 1; i < end; i++)
    if (holdsLineQuestions(array[i]) || array[i] instanceof DeferredJson) {
      end = i;
      break;
    }
  out.write(JSON.stringify(array.slice(start, end)).slice(1, -1));
  frame.next = end;
  return false;
}

/** One element at the split depth, written on its own (a cart line, or a deferred value). */
function writeElement(element: unknown, stack: Frame[], out: ByteWriter): boolean {
  if (element instanceof JsonText) {
    out.writeBytes(element.bytes);
    return false;
  }
  if (holdsLineQuestions(element) && splittable(element)) {
    // At the depth of the answer's `data`: its `questions` elements are leaves.
    stack.push(open(element, SPLIT_DEPTH - 2, out));
    return true;
  }
  out.write(JSON.stringify(element) ?? 'null');
  return false;
}

function writeMember(member: unknown, frame: Frame, stack: Frame[], out: ByteWriter): boolean {
  if (member instanceof JsonText) {
    out.writeBytes(member.bytes);
    return false;
  }
  if (frame.depth + 1 < SPLIT_DEPTH && splittable(member)) {
    stack.push(open(member, frame.depth + 1, out));
    return true;
  }
  // As JSON.stringify does for an array element: undefined, functions, symbols → null.
  out.write(JSON.stringify(member) ?? 'null');
  return false;
}

function open(value: object, depth: number, out: ByteWriter): Frame {
  const array = Array.isArray(value);
  out.write(array ? '[' : '{');
  return {
    value: value as Frame['value'],
    keys: array ? null : Object.keys(value),
    next: 0,
    depth,
    wrote: false,
  };
}

/** Arrays and ordinary objects (class instances too) without their own `toJSON`. */
function splittable(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return Object.prototype.toString.call(value) === '[object Object]';
}
