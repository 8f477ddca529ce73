import { createHash } from 'node:crypto';
import {
  compileDocument,
  importedModelIds,
  keyedProblems,
  MAX_REPORTED_PROBLEMS,
  mergeImports,
  readModelSource,
  unsafePathReason,
  type CompiledModel,
  type EngineLimits,
  type ImportedModel,
  type ModelSourceFormat,
  type Problem,
  type SourceResult,
  serializeConsistency,
  toTransferable,
} from '../../engine/work.js';
import { deflateDefinition, inflateDefinitionSync } from '../definition-bytes.js';

/**
 * The upload pipeline without I/O, run in an engine worker (engine-tasks.ts):
 * bytes → document (+ fragments, assets) → merged with the imported models → stored-ready
 * definition → compiled model as transferable bytes. Imports of other models need the
 * database: the first run answers `needs_imports` with their ids, and the caller runs it
 * again with those models loaded.
 */
export interface BuildTask {
  readonly kind: 'build';
  readonly bytes: Uint8Array;
  readonly format: ModelSourceFormat;
  readonly limits: EngineLimits;
  /** Absent on the first run; then the imported models and the asset paths they ship. */
  readonly imported?: { models: StoredImport[]; assetPaths: string[] };
}

/** An imported model's current version as stored: its definition deflated. */
export interface StoredImport {
  readonly modelId: number;
  readonly versionNumber: number;
  readonly definition: Uint8Array;
}

/** A stored definition compiled again (a cache miss), in the worker that will keep it. */
export interface CompileTask {
  readonly kind: 'compile';
  /** As stored: deflated JSON text. */
  readonly definition: Uint8Array;
  readonly limits: EngineLimits;
  /** The consistency form stored with the version (reused when this engine built it). */
  readonly consistency?: Uint8Array;
}

/** An image of the upload, with the hash it is stored and served by (hashed here, off the event loop). */
export interface BuiltAsset {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  /** SHA-256 of the bytes, hex. */
  readonly sha256: string;
}

export type Refusal = { kind: 'refused'; status: number; message: string; problems: Problem[] };

export type BuildOutcome =
  | { kind: 'needs_imports'; ids: number[] }
  | Refusal
  | {
      kind: 'built';
      /** The merged definition to store, deflated (definition-bytes.ts). */
      definition: Uint8Array;
      general: Record<string, unknown>;
      compiled: Uint8Array;
      /** Its consistency form to store (serializeConsistency). */
      consistency: Uint8Array;
      /** Options no valid configuration can use (the upload's warnings). */
      deadOptions: string[];
      /** `general.name` and `general.code` as the compile read them (the model row's). */
      name: string;
      code?: string;
      assets: Array<[string, BuiltAsset]>;
      format: ModelSourceFormat;
    };

export type CompileOutcome =
  | Refusal
  | {
      kind: 'compiled';
      /** Compiled in this worker, to cache here: never serialised (docs/adr/0201). */
      model: CompiledModel;
      /** The consistency form built afresh (the task had none): to store with the version. */
      consistency?: Uint8Array;
    };

/**
 * The upload's build, or a 422 `model_too_deep` when the engine's call stack ran out on it
 * (a recursion the engine's own depth limits did not stop): the model's fault, not the
 * server's, and not a memory limit (docs/adr/0208-stack-overflow-is-a-model-problem.md).
 */
export async function runBuild(task: BuildTask): Promise<BuildOutcome> {
  try {
    return await build(task);
  } catch (error) {
    return tooDeepOrThrow(error);
  }
}

/** The refusal of a compile that ran out of call stack; any other error thrown on. */
function tooDeepOrThrow(error: unknown): Refusal {
  if (isStackOverflow(error)) return TOO_DEEP;
  throw error;
}

const TOO_DEEP: Refusal = {
  kind: 'refused',
  status: 422,
  message: 'The model is nested too deeply',
  problems: [
    {
      code: 'model_too_deep',
      message:
        'The model nests deeper than the engine can compile (its call stack ran out): ' +
        'shorten the deepest expression or chain of rules',
    },
  ],
};

/** What V8 throws when a recursion passes the thread's stack. */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && error.message.includes('call stack');
}

async function build(task: BuildTask): Promise<BuildOutcome> {
  const source = await readModelSource(Buffer.from(task.bytes), task.format, task.limits);
  if (!source.ok) return refusal(source);
  const ids = importedModelIds(source.value.document);
  if (ids.length > 0 && task.imported === undefined) return { kind: 'needs_imports', ids };
  const imported = new Map(
    (task.imported?.models ?? []).map((m): [number, ImportedModel] => [
      m.modelId,
      {
        modelId: m.modelId,
        versionNumber: m.versionNumber,
        document: JSON.parse(inflateDefinitionSync(m.definition)) as Record<string, unknown>,
      },
    ]),
  );
  const merged = mergeImports(source.value, imported);
  if (!merged.ok) return refusal(merged);
  // Stored as JSON: compile exactly what a later load will read back.
  const text = JSON.stringify(merged.value);
  const definition = JSON.parse(text) as Record<string, unknown>;
  const compiled = compileDocument(definition, task.limits);
  const assetPaths = new Set([...source.value.assets.keys(), ...(task.imported?.assetPaths ?? [])]);
  const problems = [
    ...(compiled.ok ? [] : compiled.problems),
    ...keyedProblems(definition, missingAssets(definition, assetPaths)),
  ];
  if (!compiled.ok || problems.length > 0) {
    const reported = problems.slice(0, MAX_REPORTED_PROBLEMS);
    return { kind: 'refused', status: 400, message: 'The model is invalid', problems: reported };
  }
  return {
    kind: 'built',
    definition: deflateDefinition(text),
    general: definition.general as Record<string, unknown>,
    compiled: toTransferable(compiled.model),
    consistency: serializeConsistency(compiled.model.consistency),
    deadOptions: [...compiled.model.consistency.analysis.dead_options],
    name: compiled.model.general.name,
    ...(compiled.model.general.code === undefined ? {} : { code: compiled.model.general.code }),
    assets: [...source.value.assets].map(([path, asset]): [string, BuiltAsset] => [
      path,
      {
        bytes: asset.bytes,
        contentType: asset.contentType,
        sha256: createHash('sha256').update(asset.bytes).digest('hex'),
      },
    ]),
    format: task.format,
  };
}

/**
 * A stored version compiled again (a cache miss, in the worker that evaluates it). A compile
 * that runs out of call stack is refused as the upload's would be (422 `model_too_deep`):
 * the engine or the thread's stack may differ from the upload's.
 */
export function runCompile(task: CompileTask): CompileOutcome {
  const definition: unknown = JSON.parse(inflateDefinitionSync(task.definition));
  let result: ReturnType<typeof compileDocument>;
  try {
    result = compileDocument(definition, task.limits, { consistency: task.consistency });
  } catch (error) {
    return tooDeepOrThrow(error);
  }
  if (!result.ok)
    return {
      kind: 'refused',
      status: 500,
      message: 'Stored model no longer compiles',
      problems: [],
    };
  return {
    kind: 'compiled',
    model: result.model,
    // Serialized here, in the worker, rather than on the event loop by the caller.
    ...(task.consistency === undefined
      ? { consistency: serializeConsistency(result.model.consistency) }
      : {}),
  };
}

function refusal(result: Extract<SourceResult<unknown>, { ok: false }>): Refusal {
  const message = result.status === 413 ? 'Payload too large' : 'The model is invalid';
  return { kind: 'refused', status: result.status, message, problems: result.problems };
}

/** Image paths (not https URLs) that name no file of the upload or of an imported model. */
function missingAssets(definition: Record<string, unknown>, assets: ReadonlySet<string>) {
  const problems: Problem[] = [];
  const check = (src: unknown, path: string) => {
    if (typeof src !== 'string' || assets.has(src)) return;
    // URLs and unsafe paths are the validator's to report.
    if (/^[a-z][a-z0-9+.-]*:/i.test(src) || unsafePathReason(src) !== null) return;
    problems.push({
      code: 'unknown_asset',
      message: `"${src}" is not a file of the uploaded zip (images are zip paths or https URLs)`,
      path,
    });
  };
  recordsOf(definition.images).forEach((image, i) => check(image.src, `images[${i}].src`));
  recordsOf(definition.questions).forEach((question, q) =>
    recordsOf(question.options).forEach((option, o) =>
      check(option.image, `questions[${q}].options[${o}].image`),
    ),
  );
  return problems;
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.map((item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : {},
  );
}
