import type { Problem } from '../problems.js';

/**
 * Characters no text field may hold: C0 controls but tab, line feed and carriage return,
 * DEL and the C1 controls. Tab and newlines are allowed everywhere text may be multi-line;
 * single-line fields refuse them through their own DTO rules.
 * PostgreSQL cannot store NUL in text at all and SQLite keeps it: refusing it here keeps
 * both databases alike.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Either kind of character, in one test: nearly every text has none, so the two
 * precise tests run only when this one matches (it runs on every key and string of
 * every body).
 */
// eslint-disable-next-line no-control-regex -- as CONTROL
const SUSPECT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff]/;

/** Why `text` cannot be stored as it is, or null when it can. */
export function unsafeTextReason(text: string): string | null {
  if (!SUSPECT.test(text)) return null;
  if (CONTROL.test(text)) return 'contains a NUL or another control character';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired surrogate (not valid Unicode)';
  return null;
}

/** A container being walked: its members and the next one to visit. */
interface Frame {
  node: object;
  keys: string[] | null; // null: an array
  next: number;
}

/**
 * Every string (values and keys) of a parsed document that cannot be stored, each with
 * its path (`lines[2].reference`, `questions.width.label`). Iterative: bodies are bounded
 * in depth by the JSON parser, documents by the model reader, but the walk need not trust it.
 * Depth first, members in order, a container's keys checked as it is entered. Paths are
 * built only for problems: it runs on every body (5,000 answers) and model document.
 */
export function unsafeTextProblems(value: unknown, root = '', max = 20, label = ''): Problem[] {
  const problems: Problem[] = [];
  if (typeof value === 'string') {
    const reason = unsafeTextReason(value);
    if (reason) problems.push(textProblem(root, reason, label));
    return problems;
  }
  if (value === null || typeof value !== 'object') return problems;
  const frames: Frame[] = [];
  const enter = (node: object): boolean => {
    const keys = Array.isArray(node) ? null : Object.keys(node);
    frames.push({ node, keys, next: 0 });
    if (keys === null) return true;
    for (const key of keys) {
      const reason = unsafeTextReason(key);
      if (!reason) continue;
      problems.push(textProblem(pathOf(root, frames, 0), `has a key that ${reason}`, label));
      if (problems.length >= max) return false;
    }
    return true;
  };
  if (!enter(value)) return problems;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1];
    const length = frame.keys === null ? (frame.node as unknown[]).length : frame.keys.length;
    if (frame.next >= length) {
      frames.pop();
      continue;
    }
    const index = frame.next++;
    const child =
      frame.keys === null
        ? (frame.node as unknown[])[index]
        : (frame.node as Record<string, unknown>)[frame.keys[index]];
    if (typeof child === 'string') {
      const reason = unsafeTextReason(child);
      if (!reason) continue;
      problems.push(textProblem(pathOf(root, frames, 1), reason, label));
      if (problems.length >= max) return problems;
    } else if (child !== null && typeof child === 'object') {
      if (!enter(child)) return problems;
    }
  }
  return problems;
}

/**
 * The path of the member each frame is at; `current` 1: the last frame's member just
 * visited (its `next` is one past it), 0: the last frame itself.
 */
function pathOf(root: string, frames: readonly Frame[], current: 0 | 1): string {
  let path = root;
  const last = frames.length - 1;
  for (let i = 0; i < last + current; i++) {
    const frame = frames[i];
    const index = frame.next - 1;
    path = frame.keys === null ? `${path}[${index}]` : joinKey(path, frame.keys[index]);
  }
  return path;
}

function joinKey(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function textProblem(path: string, reason: string, label: string): Problem {
  const where = `${label ? `${label}: ` : ''}${path || 'the value'}`;
  return { code: 'invalid_text', message: `${where} ${reason}`, ...(path ? { path } : {}) };
}
