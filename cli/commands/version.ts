/**
 * `policy version`: the package version, the engine build that keys the policy cache,
 * and the Node.js running it.
 */
import type { Command } from 'commander';
import { ENGINE_VERSION, PACKAGE_VERSION } from '../../engine/host/engine-version';

/**
 * The lines `policy version` prints.
 * @example versionText() // 'hookpolicy 0.1.0\nengine 0.1.0+3f9a1c2e\nnode v20.20.2\n'
 */
export function versionText(): string {
  return `hookpolicy ${PACKAGE_VERSION}\nengine ${ENGINE_VERSION}\nnode ${process.version}\n`;
}

/** Registers `policy version`. */
export function register(program: Command): void {
  program
    .command('version')
    .description('print the version of hookpolicy, of its engine build and of Node.js')
    .action(() => {
      process.stdout.write(versionText());
    });
}
