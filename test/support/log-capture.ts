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
