/**
 * What the runner entry runs, decided once from where things are:
 * - in a project that has hookpolicy in its node_modules (the committed, shared entry):
 *   `node ${CLAUDE_PROJECT_DIR}/node_modules/hookpolicy/bin/policy.cjs`, which works on
 *   every teammate's machine and shows the model no path of this one;
 * - `${CLAUDE_PLUGIN_ROOT}` for files shipped inside a plugin;
 * - else absolute paths (a personal entry: the user's PATH and shell never matter).
 * `env -u NODE_EXTRA_CA_CERTS` goes in front when asked, because Node parses every extra
 * CA certificate before any JavaScript runs (~30 ms per event) and the runner opens no
 * TLS connection. A policy that fails closed gets `onFailure: "block"` on its entries.
 */
import * as path from 'path';
import type { CompiledPolicy } from '../types';
import type { CommandForm, RunnerCommand } from './runner';

export interface RunnerCommandOptions {
  policy: CompiledPolicy;
  /** Absolute path of node (process.execPath). */
  nodePath: string;
  /** Absolute path of bin/policy.cjs. */
  binPath: string;
  /** Policy files named with --config, absolute; [] = let the runner discover them. */
  configs: string[];
  /** Where relative --config paths are resolved by the runner (the project root). */
  projectRoot: string;
  /** Keep config paths absolute (user scope: one settings file for every project). */
  absoluteConfigs?: boolean;
  /** Writing a plugin's hooks.json: files inside it become `${CLAUDE_PLUGIN_ROOT}/...`. */
  pluginRoot?: string;
  /** bin/policy.cjs as installed in the project's node_modules (not resolved through links): run as `${CLAUDE_PROJECT_DIR}/...`. */
  projectBin?: string;
  /** Absolute path of `env` when NODE_EXTRA_CA_CERTS should be removed, else null. */
  envPath: string | null;
  form: CommandForm;
}

/**
 * The runner command for the options.
 * @example runnerCommandFor({ ..., nodePath: '/n/node', binPath: '/p/bin/policy.cjs', envPath: null, form: 'exec' })
 *   // { argv: ['/n/node', '/p/bin/policy.cjs'], hookArgs: [], form: 'exec', timeout: 10 }
 */
export function runnerCommandFor(o: RunnerCommandOptions): RunnerCommand {
  const inPlugin = (file: string) => (o.pluginRoot ? placeholderPath(file, o.pluginRoot, 'CLAUDE_PLUGIN_ROOT') : null);
  const pluginBin = inPlugin(o.binPath);
  const projectBin = o.projectBin && !pluginBin ? placeholderPath(o.projectBin, o.projectRoot, 'CLAUDE_PROJECT_DIR') : null;
  // A plugin or a project that carries its own copy of hookpolicy runs on other machines: their node, from PATH.
  const node = pluginBin || projectBin ? 'node' : o.nodePath;
  const bin = pluginBin ?? projectBin ?? toPosix(o.binPath);
  const keepCerts = o.envPath === null || pluginBin !== null || usesTls(o.policy);
  const argv = keepCerts ? [node, bin] : [o.envPath as string, '-u', 'NODE_EXTRA_CA_CERTS', node, bin];
  const hookArgs: string[] = [];
  for (const file of o.configs) hookArgs.push('--config', inPlugin(file) ?? configPath(file, o));
  const failClosed = o.policy.settings.onError === 'closed';
  if (failClosed) hookArgs.push('--on-error', 'closed');
  return { argv, hookArgs, form: o.form, timeout: Math.ceil(o.policy.settings.deadlineMs / 1000) + 5, ...(failClosed ? { failClosed } : {}) };
}

/** A webhook over https needs the user's extra CA certificates (TLS-inspecting proxies). */
function usesTls(policy: CompiledPolicy): boolean {
  return /^https:/i.test(policy.settings.log.webhook?.url ?? '');
}

function configPath(file: string, o: RunnerCommandOptions): string {
  const rel = path.relative(o.projectRoot, file);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return inside && !o.absoluteConfigs ? toPosix(rel) : toPosix(file);
}

/** `${VAR}/rel` when file lies inside root, else null. */
function placeholderPath(file: string, root: string, variable: string): string | null {
  const rel = path.relative(root, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return `\${${variable}}/${toPosix(rel)}`;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
