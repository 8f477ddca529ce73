import { parseArgs } from 'node:util';
import { CliError, usageError } from './cli-error.js';
import { COMMANDS, type Command } from './commands.js';
import { processIo, type CliIo } from './io.js';

/** Runs one command line (without `node main.js`); resolves to the exit code. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.err : io.out)(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      io.out(commandUsage(name, command));
      return 0;
    }
    await command.run(parseOptions(command, rest), env, io);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`Error: ${error.message}`);
      if (error.exitCode === 2) io.err(`\n${commandUsage(name, command)}`);
      return error.exitCode;
    }
    // Configuration problems and database errors: their message, without a stack trace.
    io.err(`Error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

function parseOptions(command: Command, args: string[]): Record<string, string | boolean> {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args, options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  for (const [key, spec] of Object.entries(command.options)) {
    if (spec.required && (values[key] === undefined || values[key] === '')) {
      throw usageError(`--${key} is required`);
    }
  }
  return values as Record<string, string | boolean>;
}

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return [
    'Usage: npm run cli -- <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    '`npm run cli -- <command> --help` lists the options of a command.',
    "The database is the service's own: DATABASE_URL (PostgreSQL) or the SQLite file",
    'under DATA_DIR (default ./data). Pending migrations are applied first.',
  ].join('\n');
}

function commandUsage(name: string, command: Command): string {
  const entries = Object.entries(command.options);
  const synopsis = entries
    .map(([key, spec]) => {
      const flag = spec.type === 'string' ? `--${key} ${spec.value ?? '<value>'}` : `--${key}`;
      return spec.required ? flag : `[${flag}]`;
    })
    .join(' ');
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return [
    `Usage: npm run cli -- ${name} ${synopsis}`.trimEnd(),
    '',
    command.summary,
    ...(entries.length ? ['', 'Options:'] : []),
    ...entries.map(([key, spec]) => `  --${key.padEnd(width)}  ${spec.help}`),
  ].join('\n');
}
