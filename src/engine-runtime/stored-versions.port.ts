import { ENGINE_VERSION, storedEngineVersion } from '../engine/index.js';
import type { StoredVersion } from './version-tasks.js';

/**
 * The runtime's one way to the stored versions: on a cache miss it reads a version's
 * definition and consistency form, and stores a consistency form it rebuilt. The models
 * feature provides it (its repository) under STORED_VERSIONS, so that the runtime never
 * imports models/ (docs/adr/0181-engine-runtime-module.md).
 */
export interface StoredVersions {
  /** The definition as stored, deflated (undefined: no such version). */
  findDefinition(modelId: number, versionNumber: number): Promise<Uint8Array | undefined>;
  /** The consistency form stored with it (undefined: none yet). */
  findConsistency(modelId: number, versionNumber: number): Promise<Uint8Array | undefined>;
  saveConsistency(modelId: number, versionNumber: number, form: Uint8Array): Promise<void>;
}

/** The injection token of the StoredVersions port. */
export const STORED_VERSIONS = Symbol('StoredVersions');

/** A stored version by key; `definition` when the caller has read it already. */
export interface VersionKey {
  modelId: number;
  versionNumber: number;
  definition?: Uint8Array;
}

/**
 * An image of a version: its content type, hash and size, with its bytes when they may
 * not be stored yet (an upload's own; an imported model's are).
 */
export interface VersionAsset {
  contentType: string;
  /** SHA-256 of the content, hex: its key in `asset_chunks` (asset-bytes.repository.ts). */
  sha256: string;
  size: number;
  bytes?: Uint8Array;
}

/**
 * A version as the runtime reads it on a miss. The consistency form stored with it is
 * reused by the compile; one built by another engine version (or none) is rebuilt there
 * and stored again.
 */
export function storedVersion(source: StoredVersions, key: VersionKey): StoredVersion {
  const { modelId, versionNumber } = key;
  return {
    modelId,
    versionNumber,
    load: async () => {
      const definition = key.definition ?? (await source.findDefinition(modelId, versionNumber));
      if (definition === undefined) return undefined;
      const form = await source.findConsistency(modelId, versionNumber);
      return form !== undefined && storedEngineVersion(form) === ENGINE_VERSION
        ? { definition, consistency: form }
        : { definition };
    },
    save: (form) => source.saveConsistency(modelId, versionNumber, form),
  };
}
