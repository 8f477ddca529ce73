/** A failure the CLI reports as one line on stderr; `exitCode` 2 means bad usage. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export const usageError = (message: string): CliError => new CliError(message, 2);
