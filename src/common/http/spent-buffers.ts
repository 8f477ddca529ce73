/**
 * Frees ArrayBuffers now rather than at the thread's next mark-compact: detached (moved to
 * an empty buffer), their memory goes back at once and stops counting as the thread's
 * external memory. A line's bytes from its worker (transferred, ~200 kB a click on the
 * 268-question car) are external memory on the main thread; left to the garbage collector,
 * they start a mark-compact of the whole main heap every ~64 MB of them (V8's external
 * memory limit), docs/adr/0233. Only for buffers nothing else reads afterwards: their views
 * become empty.
 */
export function freeBuffers(buffers: readonly ArrayBuffer[]): void {
  for (const buffer of buffers) if (!buffer.detached) buffer.transfer(0);
}
