/**
 * The real host binaries, from the pinned dev dependencies: Codex CLI's native binary (its
 * platform package of `@openai/codex`) and Gemini CLI's bundle (`@google/gemini-cli`, run
 * with this Node). Each is checked to start; where one cannot, its suite says why.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codexBinaryPath } from '../../support/codex-schemas';

export type HostName = 'codex' | 'gemini';

export interface HostBinary {
  host: HostName;
  /** The program and its leading arguments. */
  argv: string[] | null;
  version: string | null;
  /** Why it cannot run here, or null when it can. */
  unavailable: string | null;
}

const cache = new Map<HostName, HostBinary>();

function locate(host: HostName): string[] | null {
  if (host === 'codex') {
    const file = codexBinaryPath();
    return file ? [file] : null;
  }
  try {
    const file = path.join(path.dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');
    return fs.existsSync(file) ? [process.execPath, file] : null;
  } catch {
    return null;
  }
}

/**
 * The host's binary and version, checked to start.
 * @example hostBinary('codex').version // '0.171.0'
 */
export function hostBinary(host: HostName): HostBinary {
  const known = cache.get(host);
  if (known) return known;
  const argv = locate(host);
  let found: HostBinary;
  if (!argv) {
    found = { host, argv: null, version: null, unavailable: `no ${host} binary for ${process.platform}-${process.arch} in node_modules` };
  } else {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hp-version-'));
    const run = spawnSync(argv[0], [...argv.slice(1), '--version'], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: home, CODEX_HOME: home } });
    fs.rmSync(home, { recursive: true, force: true });
    const version = /(\d+\.\d+\.\d+)/.exec(run.stdout ?? '')?.[1] ?? null;
    found = run.status === 0 && version
      ? { host, argv, version, unavailable: null }
      : { host, argv, version: null, unavailable: `${argv.join(' ')} does not run here (${run.error?.message ?? `exit ${run.status}: ${run.stderr}`})` };
  }
  cache.set(host, found);
  return found;
}
