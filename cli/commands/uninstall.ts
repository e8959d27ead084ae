/**
 * `policy uninstall`: removes the runner entries `policy init` wrote (and nothing else)
 * from one settings file or a plugin's hooks.json, after saving a backup.
 */
import * as path from 'path';
import type { Command } from 'commander';
import { countRunnerHooks, settingsProblem, uninstallHooks } from '../../engine/init/merge';
import type { SettingsObject } from '../../engine/init/types';
import { managedDropInPath, managedSettingsDir, readSettingsFile, settingsPath, writeSettingsFile } from '../../engine/host/settings-file';
import { withoutSelfProtectionPermissions } from '../../engine/init/permissions';
import { loadPolicyForCommand, usageErrorsExit2 } from './explain';
import { fail, homeDir, parseScope, pluginHooksPath, projectRootOf, show } from './init';
import { permissionPaths } from './init-guards';
import { removeMemSearchCommand } from './init-memory';

interface UninstallOptions {
  scope?: string;
  plugin?: string;
  projectDir?: string;
  managedDir?: string;
}

/** The settings without the permission deny rules init wrote for the policy's protected files (when the policy loads). */
function withoutGuards(settings: SettingsObject, options: UninstallOptions, projectRoot: string): SettingsObject {
  if (options.plugin) return settings;
  const { policy } = loadPolicyForCommand([], projectRoot, process.env);
  if (!policy) return settings;
  // As with the sandbox on: its rules are a superset (one per package hookpolicy loads), and removing a rule that is not there changes nothing.
  return withoutSelfProtectionPermissions(settings, permissionPaths(policy, options.scope === 'managed' ? 'managed' : parseScope(options.scope) ?? 'project', projectRoot, true));
}

/** Registers `policy uninstall [--scope project|local|user|managed] [--managed-dir D] [--plugin DIR] [--project-dir D]`. */
export function register(program: Command): void {
  program
    .command('uninstall')
    .description('remove the runner entries policy init added; other settings and hooks stay')
    .option('--scope <scope>', 'project, local, user or managed (default: project)')
    .option('--managed-dir <dir>', `--scope managed: the managed settings folder (default: ${managedSettingsDir()})`)
    .option('--plugin <dir>', 'edit <dir>/hooks/hooks.json instead of settings')
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .exitOverride(usageErrorsExit2)
    .action((options: UninstallOptions) => {
      const projectRoot = projectRootOf(options);
      const file = options.plugin
        ? pluginHooksPath(path.resolve(options.plugin))
        : options.scope === 'managed'
          ? managedDropInPath(path.resolve(options.managedDir ?? managedSettingsDir()))
          : settingsPath(parseScope(options.scope) ?? 'project', projectRoot, homeDir());
      const target = readSettingsFile(file);
      if (target.settings === null) fail(`${show(file, projectRoot)}: ${target.problem}; not changed`);
      const problem = settingsProblem(target.settings);
      if (problem) fail(`${show(file, projectRoot)}: ${problem}; not changed`);
      const settings = target.settings as SettingsObject;
      const removed = countRunnerHooks(settings);
      const stripped = withoutGuards(settings, options, projectRoot);
      const result = uninstallHooks(stripped);
      const out = (line: string) => process.stdout.write(`${line}\n`);
      const ownCommand = () => {
        if (!options.plugin && options.scope !== 'user' && options.scope !== 'managed') removeMemSearchCommand(projectRoot, out);
      };
      if (!result.changed && JSON.stringify(stripped) === JSON.stringify(settings)) {
        out(`${show(file, projectRoot)}: no runner entries; nothing changed`);
        ownCommand();
        return;
      }
      const { backup } = writeSettingsFile(target, result.settings);
      out(`Removed ${removed} runner ${removed === 1 ? 'entry' : 'entries'} from ${show(file, projectRoot)}${backup ? ` (backup: ${show(backup, projectRoot)})` : ''}`);
      ownCommand();
    });
}
