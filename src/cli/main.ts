import 'reflect-metadata';
import { runCli } from './run.js';

/**
 * `npm run cli -- <command> [options]`: operator tasks against the service's database
 * (first admin, users, memberships, migrations, loading a model file). Run
 * `npm run cli -- help` for the list.
 */
runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
