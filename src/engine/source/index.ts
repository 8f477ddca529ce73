/**
 * Bytes of a model upload → the model document with its imports, safely: every limit of
 * docs/model-format.md "Limits" is checked before the work it guards. See docs/MODEL_SOURCES.md.
 */
import type { EngineLimits } from '../limits.js';
import { ProblemList } from '../problems.js';
import { assetContentTypeOf, extensionOf, type ModelSourceFormat } from './content-type.js';
import { parseDocument } from './document.js';
import type { ModelAsset, ModelSource } from './merge.js';
import { invalid, limitExceeded, ok, type SourceResult } from './result.js';
import { ROOT_MODEL_NAMES, readZip } from './zip.js';

export { sourceFormatOf, type ModelSourceFormat } from './content-type.js';
export {
  importedModelIds,
  mergeImports,
  type ImportedModel,
  type ModelAsset,
  type ModelSource,
} from './merge.js';
export type { SourceResult } from './result.js';
export { MAX_PATH_LENGTH, unsafePathReason } from './paths.js';
export { unsafeTextProblems, unsafeTextReason } from './text.js';

/**
 * Parses an upload. A JSON or YAML body is the whole model; a zip holds the root model, the
 * fragments its `imports[].path` name (parsed here, merged by mergeImports) and image assets.
 * Sizes over a limit answer 413, everything else wrong 400 with every problem found.
 */
export async function readModelSource(
  bytes: Buffer,
  format: ModelSourceFormat,
  limits: EngineLimits,
): Promise<SourceResult<ModelSource>> {
  if (bytes.length > limits.uploadBytes) {
    return limitExceeded(
      `the upload is larger than uploadBytes (${limits.uploadBytes}) bytes`,
      true,
    );
  }
  if (format !== 'zip') {
    const document = parseDocument(bytes, format, 'the model', limits);
    if (!document.ok) return document;
    return ok({ document: document.value, fragments: new Map(), assets: new Map(), format });
  }

  const files = await readZip(bytes, limits);
  if (!files.ok) return files;
  // readZip guarantees exactly one root model file.
  const rootName = ROOT_MODEL_NAMES.find((name) => files.value.has(name)) ?? ROOT_MODEL_NAMES[0];
  const rootBytes = files.value.get(rootName) ?? Buffer.alloc(0);
  // A small archive may inflate to a huge model: the root document is held to the upload limit.
  if (rootBytes.length > limits.uploadBytes) {
    return limitExceeded(
      `${rootName} is ${rootBytes.length} bytes uncompressed; the root model document is held to uploadBytes (${limits.uploadBytes})`,
      true,
      rootName,
    );
  }
  const root = parseDocument(rootBytes, syntaxOf(rootName) ?? 'yaml', rootName, limits);
  if (!root.ok) return root;

  const problems = new ProblemList();
  const fragments = new Map<string, Record<string, unknown>>();
  const imports = root.value.imports;
  (Array.isArray(imports) ? imports : []).forEach((entry: unknown, index: number) => {
    const path =
      typeof entry === 'object' && entry !== null
        ? (entry as Record<string, unknown>).path
        : undefined;
    // Missing or malformed paths are left to mergeImports, which reports every import problem.
    if (typeof path !== 'string' || fragments.has(path)) return;
    const content = files.value.get(path);
    if (content === undefined) return;
    const at = `imports[${index}].path`;
    const syntax = syntaxOf(path);
    if (syntax === null) {
      problems.add('invalid_import', `"${path}" is not a .yaml, .yml or .json file`, at);
      return;
    }
    const fragment = parseDocument(content, syntax, path, limits, at);
    if (fragment.ok) fragments.set(path, fragment.value);
    else
      for (const problem of fragment.problems)
        problems.add(problem.code, problem.message, problem.path);
  });
  if (!problems.empty) return invalid(problems.items);

  const assets = new Map<string, ModelAsset>();
  for (const [name, content] of files.value) {
    const contentType = assetContentTypeOf(name);
    if (contentType !== null) assets.set(name, { bytes: content, contentType });
  }
  return ok({ document: root.value, fragments, assets, format });
}

function syntaxOf(path: string): 'json' | 'yaml' | null {
  const extension = extensionOf(path);
  if (extension === 'json') return 'json';
  return extension === 'yaml' || extension === 'yml' ? 'yaml' : null;
}
