import { holdsLineQuestions, lineListJson, SliceClock, type Slicing } from '../../engine/index.js';
import { JsonText } from '../http/json-text.js';
import { ByteWriter, type SerializedJson } from './byte-writer.js';

/**
 * Arrays and plain objects above this depth are written member by member (a pause may
 * come between two members); at it, `JSON.stringify` writes them. A cart line's bulk is
 * its questions at depth 3 (envelope → data → questions → one question).
 */
const SPLIT_DEPTH = 3;

/**
 * Elements of an array at the split depth written by one `JSON.stringify`: much faster
 * than one call per element, and a group's text is turned into bytes while small (see
 * docs/DECISIONS.md "Answers written in slices" for the measurement).
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

/**
 * The UTF-8 bytes of `JSON.stringify(value)`, written in slices with a pause once
 * `sliceMs` have passed, so that a multi-megabyte answer (a 5,000-question line) does not
 * hold the event loop for its whole serialization. Small values are written without
 * pausing. Values with `toJSON` (dates), boxed primitives, maps and the like are left to
 * `JSON.stringify` whole. Iterative (an explicit stack), no generator per member. With
 * `hash`, also the SHA-1 of a large answer's bytes, taken in the same slices (an ETag:
 * express would hash tens of megabytes at once).
 */
export async function serializeInSlices(
  value: unknown,
  slicing: Slicing,
  hash = false,
): Promise<SerializedJson> {
  const out = new ByteWriter();
  if (!splittable(value)) {
    out.write(JSON.stringify(value) ?? 'null');
    return out.finish(undefined, hash);
  }
  const stack: Frame[] = [open(value, 0, out)];
  const clock = new SliceClock(slicing);
  try {
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (writeNext(frame, stack, out)) continue;
      if (clock.due()) await clock.pause();
    }
    return await out.finish(clock, hash);
  } finally {
    clock.end();
  }
}

/**
 * Writes the frame's next member (or group of elements), or closes the frame. Answers
 * true when that was cheap (punctuation, a skipped member, a frame opened) and the clock
 * need not be read.
 */
function writeNext(frame: Frame, stack: Frame[], out: ByteWriter): boolean {
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
    return writeMember(array[frame.next++], frame, stack, out);
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
  return writeMember(member, frame, stack, out);
}

/**
 * Up to GROUP elements of an array at the split depth. A cart line's lists come from the
 * engine's prepared text; other elements are written by one JSON.stringify (as an array,
 * "[a,b]": its elements are inside), except a cart line inside a larger answer (a page
 * of a cart's lines: 50 lines of 1,000 questions are 40 MB). That one is written as the
 * answer's own data is, member by member, so its questions are split as well.
 */
function writeGroup(frame: Frame, stack: Frame[], out: ByteWriter): boolean {
  const array = frame.value as unknown[];
  const start = frame.next;
  let end = Math.min(array.length, start + GROUP);
  const known = lineListJson(array, start, end);
  if (known !== undefined) {
    out.write(known);
    frame.next = end;
    return false;
  }
  if (holdsLineQuestions(array[start]) && splittable(array[start])) {
    frame.next++;
    // At the depth of the answer's `data`: its `questions` elements are leaves.
    stack.push(open(array[start] as object, SPLIT_DEPTH - 2, out));
    return true;
  }
  for (let i = start + 1; i < end; i++)
    if (holdsLineQuestions(array[i])) {
      end = i;
      break;
    }
  out.write(JSON.stringify(array.slice(start, end)).slice(1, -1));
  frame.next = end;
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
