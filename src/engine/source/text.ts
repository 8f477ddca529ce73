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

/** Why `text` cannot be stored as it is, or null when it can. */
export function unsafeTextReason(text: string): string | null {
  if (CONTROL.test(text)) return 'contains a NUL or another control character';
  if (LONE_SURROGATE.test(text)) return 'contains an unpaired surrogate (not valid Unicode)';
  return null;
}

/**
 * Every string (values and keys) of a parsed document that cannot be stored, each with
 * its path (`lines[2].reference`, `questions.width.label`). Iterative: bodies are bounded
 * in depth by the JSON parser, documents by the model reader, but the walk need not trust it.
 */
export function unsafeTextProblems(value: unknown, root = '', max = 20, label = ''): Problem[] {
  const problems: Problem[] = [];
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0 && problems.length < max) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unsafeTextReason(current);
      if (reason) problems.push(textProblem(path, reason, label));
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Array.isArray(current)
      ? current.map((item, index) => [`${path}[${index}]`, item] as const)
      : Object.entries(current).map(([key, item]) => [joinKey(path, key), item] as const);
    for (const [childPath, child] of entries.reverse()) {
      if (!Array.isArray(current)) {
        const key = childPath.slice(path ? path.length + 1 : 0);
        const reason = unsafeTextReason(key);
        if (reason) problems.push(textProblem(path, `has a key that ${reason}`, label));
      }
      stack.push([child, childPath]);
    }
  }
  return problems;
}

function joinKey(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function textProblem(path: string, reason: string, label: string): Problem {
  const where = `${label ? `${label}: ` : ''}${path || 'the value'}`;
  return { code: 'invalid_text', message: `${where} ${reason}`, ...(path ? { path } : {}) };
}
