/** Types of tcp-proxy.mjs, for the TypeScript tests that use it. */
export interface SilenceableProxy {
  port: number;
  /** From now on nothing passes, on any connection. */
  silence(): void;
  /** New connections pass again; those opened before stay silent. */
  restore(): void;
  close(): Promise<void>;
}

export function startSilenceableProxy(
  targetPort: number,
  targetHost?: string,
): Promise<SilenceableProxy>;
