import type { AppConfig } from '../config/app-config.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { compileDocument } from '../engine/work.js';
import { inflateDefinitionSync } from '../engine-runtime/definition-bytes.js';
import { ModelRepository } from '../models/model.repository.js';
import { CliError } from './cli-error.js';
import { withDatabase } from './database.js';
import type { CliIo } from './io.js';

/**
 * Compiles every stored model version as the service does when it first needs one (its
 * definition with its stored consistency form, under this configuration's limits), and
 * lists those that no longer compile with their problems: an engine upgrade whose checks
 * are stricter would make reading them answer 500 (docs/OPERATIONS.md "Stored models
 * after an engine upgrade"). Run with the new release before rolling it out; exit 1 when
 * any is refused.
 */
export async function checkModels(config: AppConfig, io: CliIo): Promise<void> {
  await withDatabase(config, async (dataSource) => {
    const models = new ModelRepository(dataSource, new TransactionRunner(dataSource));
    const versions = await models.versionKeys();
    let refused = 0;
    for (const { modelId, versionNumber } of versions) {
      const definition = await models.findDefinition(modelId, versionNumber);
      if (definition === undefined) continue;
      const consistency = await models.findConsistency(modelId, versionNumber);
      const problems = compileProblems(definition, consistency, config);
      if (problems.length === 0) continue;
      refused++;
      io.out(`Model #${modelId} version ${versionNumber} no longer compiles:`);
      for (const problem of problems) io.out(`  - ${problem}`);
    }
    if (refused > 0)
      throw new CliError(`${refused} of ${versions.length} stored versions no longer compile`);
    io.out(`All ${versions.length} stored versions compile`);
  });
}

/** What keeps a stored version from compiling (each a line), or none. */
function compileProblems(
  definition: Uint8Array,
  consistency: Uint8Array | undefined,
  config: AppConfig,
): string[] {
  try {
    const document: unknown = JSON.parse(inflateDefinitionSync(definition));
    const result = compileDocument(document, config.engineLimits, { consistency });
    if (result.ok) return [];
    return result.problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message}`);
  } catch (error) {
    // A stored row the service could not read either (corrupt bytes, a stored form it
    // cannot revive): listed like a refusal, and the other versions are still checked.
    return [`cannot be read: ${error instanceof Error ? error.message : String(error)}`];
  }
}
