import type { Problem } from '../problems.js';
import { isRecord } from '../source/record.js';

/** One step of a problem path: a member name, or a list position. */
type Step = string | number;

const STEP = /([^.[\]]+)|\[(\d+)\]/g;

function stepsOf(path: string): Step[] {
  return [...path.matchAll(STEP)].map((match) =>
    match[2] === undefined ? match[1] : Number(match[2]),
  );
}

/** RFC 6901: `~` and `/` escaped in each reference token. */
function pointerOf(steps: readonly Step[]): string {
  return steps.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * A problem's path by keys where the document has them, for people and the workbench:
 * `questions[0].options[2].price` → `questions.battery.options.625.price`. A list entry
 * with a string `key` is named by it; one without (an import, a table row) keeps its
 * position. The positional form stays exact as a JSON Pointer, for tools that index the
 * document (`/questions/0/options/2/price`). Undefined when the path has no position.
 */
function keyedPath(document: unknown, path: string): { path: string; pointer: string } | undefined {
  const steps = stepsOf(path);
  if (!steps.some((step) => typeof step === 'number')) return undefined;
  let node: unknown = document;
  let keyed = '';
  for (const step of steps) {
    const entry: unknown =
      Array.isArray(node) || isRecord(node) ? (node as never)[step] : undefined;
    if (typeof step === 'number') {
      const key = uniqueKey(node as unknown[], entry);
      keyed = key === undefined ? `${keyed}[${step}]` : `${keyed}.${key}`;
    } else {
      keyed = keyed === '' ? step : `${keyed}.${step}`;
    }
    node = entry;
  }
  return { path: keyed, pointer: pointerOf(steps) };
}

/** A name a key path may use: the model's key patterns (docs/model-format.md "Identifiers"). */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * The entry's `key` when it names the entry alone in its list and is a well-formed key;
 * otherwise (no key, a malformed or duplicated one: often the problem itself) undefined,
 * and the entry keeps its position.
 */
function uniqueKey(list: unknown[], entry: unknown): string | undefined {
  if (!isRecord(entry) || typeof entry.key !== 'string' || !KEY.test(entry.key)) return undefined;
  const { key } = entry;
  const named = list.filter((other) => isRecord(other) && other.key === key).length;
  return named === 1 ? key : undefined;
}

/** Every problem with its path by keys (and the message naming it so), plus its pointer. */
export function keyedProblems(document: unknown, problems: readonly Problem[]): Problem[] {
  return problems.map((problem) => {
    if (problem.path === undefined) return problem;
    const keyed = keyedPath(document, problem.path);
    if (keyed === undefined) return problem;
    return {
      ...problem,
      message: problem.message.split(problem.path).join(keyed.path),
      path: keyed.path,
      pointer: keyed.pointer,
    };
  });
}
