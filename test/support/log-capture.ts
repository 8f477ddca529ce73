/** The JSON log lines an app wrote, kept in memory for assertions. */
export class LogCapture {
  readonly text: string[] = [];
  readonly stream = { write: (chunk: string): void => void this.text.push(chunk) };

  /** Every line parsed; a line that is not JSON fails the test that reads it. */
  lines(): Record<string, unknown>[] {
    return this.text
      .join('')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  all(): string {
    return this.text.join('');
  }
}

/** A stack trace, a 500 or an internal error text: none may follow a client's mistake. */
export const STACK_OR_ERROR =
  /\n\s+at |TypeError|is not a function|Unexpected error|Internal server error|"status":5\d\d/i;

/**
 * Runs `work` and answers what the app logged meanwhile: the text, and the lines at
 * level error (pino 50) or above.
 */
export async function logDuring(
  logs: LogCapture,
  work: () => Promise<void>,
): Promise<{ text: string; errors: Record<string, unknown>[] }> {
  const from = logs.text.length;
  await work();
  const text = logs.text.slice(from).join('');
  const errors = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => Number(line.level) >= 50);
  return { text, errors };
}
