import { vi } from 'vitest';

/**
 * Captures what the app writes to stdout and stderr (Nest's logger writes there) while
 * a test replays an attack, to assert that nothing was logged as an error or a stack.
 */
export function captureLog(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const keep = (chunk: unknown) => {
    chunks.push(typeof chunk === 'string' ? chunk : String(chunk));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  return {
    text: () => chunks.join(''),
    restore: () => {
      out.mockRestore();
      err.mockRestore();
    },
  };
}

/** No stack trace, no 500 log line, no internal error text. */
export const STACK_OR_ERROR =
  /\n\s+at |TypeError|is not a function|Unexpected error|Internal server error/i;
