import type { EngineLimits } from '../limits.js';
import type { Problem } from '../problems.js';
import { expandTree, jsonTextDepthExceeds, measureTree } from './depth.js';
import { invalid, limitExceeded, ok, type SourceResult } from './result.js';
import { unsafeTextProblems } from './text.js';
import { parseYaml } from './yaml.js';

/**
 * Aliases may repeat parts of a YAML document, but never expand it beyond this many nodes
 * or beyond one node per byte of its text, whichever is more: a JSON document of that size
 * could not have been uploaded at all.
 */
export const MIN_EXPANDED_NODES = 100_000;

export type DocumentSyntax = 'json' | 'yaml';

/**
 * One parsed document: UTF-8 (a BOM is dropped), JSON or YAML, a mapping at the root, no
 * deeper than nestingDepth, and a plain tree (YAML aliases copied out).
 * `label` names the document in messages, `path` is the problem path to report.
 */
export function parseDocument(
  bytes: Uint8Array,
  syntax: DocumentSyntax,
  label: string,
  limits: EngineLimits,
  path?: string,
): SourceResult<Record<string, unknown>> {
  const at = path === undefined ? {} : { path };
  const problem = (code: string, message: string): Problem => ({ code, message, ...at });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return invalid([problem('invalid_encoding', `${label}: not valid UTF-8`)]);
  }
  const depthMessage = `${label}: nesting deeper than nestingDepth (${limits.nestingDepth})`;
  let value: unknown;
  if (syntax === 'json') {
    if (jsonTextDepthExceeds(text, limits.nestingDepth))
      return limitExceeded(depthMessage, false, path);
    try {
      value = JSON.parse(text);
    } catch (error) {
      return invalid([
        problem('invalid_json', `${label}: invalid JSON: ${jsonErrorText(error, text)}`),
      ]);
    }
  } else {
    const parsed = parseYaml(text, label, limits, path);
    if (!parsed.ok)
      return parsed.limit
        ? { ok: false, status: 400, problems: [parsed.problem] }
        : invalid([parsed.problem]);
    value = parsed.value;
  }
  const maxNodes = Math.max(MIN_EXPANDED_NODES, text.length);
  // Text after expansion is bounded like nodes: by the upload limit, or by the document's
  // own size when it is larger (a zip entry): without aliases a document's keys and
  // scalars never hold more characters than its text, so only repetition is refused.
  const maxChars = Math.max(limits.uploadBytes, text.length);
  const shape = measureTree(value, limits.nestingDepth, maxNodes, maxChars);
  switch (shape.kind) {
    case 'too_deep':
      return limitExceeded(depthMessage, false, path);
    case 'too_many_nodes':
      return limitExceeded(
        `${label}: YAML aliases expand the document beyond ${maxNodes} nodes (yamlAliases limits repetition)`,
        false,
        path,
      );
    case 'too_large':
      return limitExceeded(
        `${label}: YAML aliases expand the document's text beyond ${maxChars} characters (the upload limit)`,
        false,
        path,
      );
    case 'cycle':
      return invalid([
        problem('invalid_yaml', `${label}: an alias refers to a node that contains it`),
      ]);
    case 'ok':
      break;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid([
      problem(
        'invalid_document',
        `${label}: the document must be a mapping (an object) at the root`,
      ),
    ]);
  }
  const tree = shape.shared ? expandTree(value) : value;
  // Text no database stores alike (NUL, control characters, lone surrogates) is refused
  // here, with its path in the document, before anything is compiled or saved.
  const badText = unsafeTextProblems(tree, '', 20, label);
  if (badText.length > 0) return invalid(badText);
  return ok(tree as Record<string, unknown>);
}

/** V8's message, with a line and column added when it only gives a position. */
function jsonErrorText(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /at position (\d+)/.exec(message);
  if (match === null || /line \d+/.test(message)) return message;
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `${message} (line ${line}, column ${column})`;
}
