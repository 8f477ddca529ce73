import yaml, { type LoadOptions, type State } from 'js-yaml';

import type { EngineLimits } from '../limits.js';
import type { Problem } from '../problems.js';

/** Thrown from the parse listener to stop js-yaml as soon as a limit is crossed. */
class YamlLimitError extends Error {}

export type YamlParse =
  { ok: true; value: unknown } | { ok: false; limit: boolean; problem: Problem };

/**
 * Parses one YAML document with the core schema: only the standard scalar tags, so
 * `!!js/function` or `!custom` fail, and merge keys (`<<`) stay plain keys. Aliases are
 * counted while parsing and the parse stops at the first one over the limit; js-yaml
 * shares aliased nodes rather than copying them, so nothing has been expanded yet.
 */
export function parseYaml(
  text: string,
  label: string,
  limits: EngineLimits,
  path?: string,
): YamlParse {
  const at = path === undefined ? {} : { path };
  // Positions, not events: js-yaml re-reads a node when it backtracks (a `- *x` entry is
  // first tried as a mapping key), so the same alias can be composed twice.
  const aliases = new Set<number>();
  let depth = 0;
  const starts: number[] = [];
  // Containers nest to nestingDepth; their scalar children are one level deeper.
  const maxNodeDepth = limits.nestingDepth + 1;
  const listener = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') {
      if (++depth > maxNodeDepth) {
        throw new YamlLimitError(
          `${label}: nesting deeper than nestingDepth (${limits.nestingDepth})`,
        );
      }
      starts.push(state.position);
      return;
    }
    depth--;
    const start = starts.pop() ?? state.position;
    // An alias node is the only node that ends with no kind of its own.
    const alias = state.kind === null ? aliasPosition(state.input, start, state.position) : -1;
    if (alias >= 0) {
      aliases.add(alias);
      if (aliases.size > limits.yamlAliases) {
        throw new YamlLimitError(
          `${label}: more than yamlAliases (${limits.yamlAliases}) YAML aliases`,
        );
      }
    }
  };
  // maxDepth (js-yaml >= 4.2, not in @types) is a backstop behind the listener's own check.
  const options: LoadOptions & { maxDepth: number } = {
    schema: yaml.CORE_SCHEMA,
    listener,
    maxDepth: maxNodeDepth + 1,
  };
  try {
    return { ok: true, value: yaml.load(text, options) };
  } catch (error) {
    if (error instanceof YamlLimitError) {
      return {
        ok: false,
        limit: true,
        problem: { code: 'limit_exceeded', message: error.message, ...at },
      };
    }
    if (error instanceof yaml.YAMLException) {
      const where = error.mark
        ? ` at line ${error.mark.line + 1}, column ${error.mark.column + 1}`
        : '';
      const hint = error.mark ? quotingHint(text, error.mark.line) : '';
      const message = `${label}: invalid YAML: ${error.reason}${where}${hint}`;
      return { ok: false, limit: false, problem: { code: 'invalid_yaml', message, ...at } };
    }
    if (error instanceof RangeError) {
      const message = `${label}: nesting deeper than nestingDepth (${limits.nestingDepth})`;
      return { ok: false, limit: true, problem: { code: 'limit_exceeded', message, ...at } };
    }
    throw error;
  }
}

/**
 * YAML reads `: ` inside a plain value as the start of another mapping entry, so an
 * unquoted expression such as `expr: a ? 0.12 : 0.16` fails with js-yaml's "bad
 * indentation of a mapping entry", which names no cause. When the failing line holds a
 * value with a second `: `, the message says what to do (docs/model-format.md, "Quoting
 * expressions in YAML").
 */
function quotingHint(text: string, line: number): string {
  const source = text.split('\n', line + 1)[line] ?? '';
  const value = /^\s*(?:-\s+)?[\w.-]+:\s+(.*)$/.exec(source)?.[1] ?? '';
  if (!/:\s/.test(value) || /^["'|>]/.test(value)) return '';
  return '; a value that contains ": " (a CEL ternary `a ? b : c`, a map) must be quoted: `expr: "…"`';
}

/** Offset of the `*` the node text from `start` begins with (after spaces, line breaks, comments), else -1. */
function aliasPosition(input: string, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const ch = input.charCodeAt(i);
    if (ch === 0x20 || ch === 0x09 || ch === 0x0a || ch === 0x0d) {
      i++;
    } else if (ch === 0x23) {
      while (i < end && input.charCodeAt(i) !== 0x0a) i++;
    } else {
      return ch === 0x2a ? i : -1;
    }
  }
  return -1;
}
