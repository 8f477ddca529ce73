import { AppConfig } from '../config/app-config.js';
import { usageError } from './cli-error.js';
import { migrate, withDatabase } from './database.js';
import type { CliIo } from './io.js';
import { cliServices } from './services.js';
import { addMembership, createUser, type MembershipTarget } from './user-commands.js';

export type OptionValues = Record<string, string | boolean | undefined>;

export interface OptionSpec {
  type: 'string' | 'boolean';
  required?: boolean;
  value?: string;
  help: string;
}

export interface Command {
  summary: string;
  options: Record<string, OptionSpec>;
  run(options: OptionValues, env: NodeJS.ProcessEnv, io: CliIo): Promise<void>;
}

const passwordOptions: Record<string, OptionSpec> = {
  password: { type: 'string', value: '<password>', help: 'at least 8 characters' },
  'password-stdin': {
    type: 'boolean',
    help: 'read the password from standard input instead (keeps it out of `ps` and shell history)',
  },
};

const userCommand = (admin: boolean): Command => ({
  summary: admin ? 'Create an admin user' : 'Create a user (member unless --role admin)',
  options: {
    email: { type: 'string', required: true, value: '<email>', help: 'the login email' },
    ...passwordOptions,
    name: { type: 'string', value: '<name>', help: 'display name' },
    ...(admin
      ? {}
      : { role: { type: 'string', value: 'admin|member', help: 'default member' } as OptionSpec }),
  },
  async run(options, env, io) {
    const role = admin ? 'admin' : (options.role ?? 'member');
    if (role !== 'admin' && role !== 'member') throw usageError('--role must be admin or member');
    const password = await passwordFrom(options, io);
    const config = new AppConfig(env);
    const user = await withDatabase(config, (dataSource) =>
      createUser(cliServices(dataSource, config), {
        email: String(options.email),
        password,
        role,
        ...(typeof options.name === 'string' ? { name: options.name } : {}),
      }),
    );
    io.out(`Created ${user.role} #${user.id} ${user.email}`);
  },
});

const membershipCommand = (target: MembershipTarget): Command => ({
  summary: `Add a user to a ${target}'s members`,
  options: {
    [target]: { type: 'string', required: true, value: '<id>', help: `the ${target} id` },
    user: { type: 'string', required: true, value: '<id|email>', help: 'the user' },
  },
  async run(options, env, io) {
    const targetId = positiveId(options[target], `--${target}`);
    const config = new AppConfig(env);
    const result = await withDatabase(config, (dataSource) =>
      addMembership(cliServices(dataSource, config), target, targetId, String(options.user)),
    );
    const who = `#${result.user.id} ${result.user.email}`;
    io.out(
      result.added
        ? `Added ${who} to ${target} #${targetId} ${result.name}`
        : `${who} is already a member of ${target} #${targetId} ${result.name}: nothing to do`,
    );
  },
});

export const COMMANDS: Record<string, Command> = {
  'create-admin': userCommand(true),
  'create-user': userCommand(false),
  'add-supplier-member': membershipCommand('supplier'),
  'add-company-member': membershipCommand('company'),
  migrate: {
    summary: 'Apply pending database migrations (the service also does this at start-up)',
    options: {},
    async run(_options, env, io) {
      const applied = await migrate(new AppConfig(env));
      io.out(applied.length ? `Applied ${applied.join(', ')}` : 'No pending migrations');
    },
  },
  'check-models': {
    summary:
      'Compile every stored model version with this release (before an upgrade); exit 1 listing those that no longer compile',
    options: {},
    async run(_options, env, io) {
      const { checkModels } = await import('./check-models.js');
      await checkModels(new AppConfig(env), io);
    },
  },
  'load-model': {
    summary: 'Upload a model file (.json, .yaml/.yml or .zip) as a new model of a supplier',
    options: {
      supplier: { type: 'string', required: true, value: '<id>', help: 'the supplier id' },
      file: {
        type: 'string',
        required: true,
        value: '<path>',
        help: 'the model file, e.g. examples/window.yaml (a folder: node tools/zip-model.mjs DIR out.zip)',
      },
      as: {
        type: 'string',
        value: '<id|email>',
        help: 'the user recorded as uploader (default: the first admin)',
      },
    },
    async run(options, env, io) {
      const supplierId = positiveId(options.supplier, '--supplier');
      const asUser = typeof options.as === 'string' ? options.as : undefined;
      // Loaded only here: it pulls in the whole application, which the other commands skip.
      const { loadModel } = await import('./load-model.js');
      await loadModel(new AppConfig(env), supplierId, String(options.file), asUser, io);
    },
  },
};

function positiveId(raw: string | boolean | undefined, flag: string): number {
  const value = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  if (value < 1) throw usageError(`${flag} must be a positive integer id`);
  return value;
}

async function passwordFrom(options: OptionValues, io: CliIo): Promise<string> {
  const given = typeof options.password === 'string';
  if (given === Boolean(options['password-stdin'])) {
    throw usageError('give exactly one of --password and --password-stdin');
  }
  if (given) return options.password as string;
  // One line; the trailing newline of `echo` or a here-string is not part of it.
  return (await io.readStdin()).replace(/\r?\n$/, '');
}
