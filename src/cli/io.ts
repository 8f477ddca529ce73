/** Where the CLI writes and reads; the tests pass their own. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  readStdin(): Promise<string>;
}

export const processIo: CliIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};
