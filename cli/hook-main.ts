/**
 * Entry of dist/hook.cjs, the hot path: reads stdin synchronously, runs the hook, writes
 * stdout and stderr each in one synchronous write, and hands the exit code to bin.
 */
import * as fs from 'fs';
import { runHook } from './hook';
import { parseHookArgs } from './hook-args';
import { runKind } from './run-kind';

// The engine's hot path, for in-process use (scripts/bench.mjs, embedding): already in
// this bundle, so exporting them costs nothing at start-up.
export { runHook } from './hook';
export { evaluate } from '../engine/evaluate';
export { renderResponse } from '../engine/render';
export { createFileFacts } from '../engine/host/file-facts';

export interface HookMainResult {
  exitCode: 0 | 2;
  /** The deadline passed: bin ends the process at once instead of waiting for stray work. */
  timedOut: boolean;
  /**
   * What kind of run this was (`PreToolUse/Bash/deny/w`), for bin's code cache (run-kind.ts).
   */
  runKind: string;
}

/**
 * Runs `policy hook` on the real stdin/stdout/stderr.
 * @example main(['--config', 'ci.yaml']).then((r) => { process.exitCode = r.exitCode; })
 */
export async function main(argv: string[]): Promise<HookMainResult> {
  // A usage error typed at a terminal is reported at once, not after the user ends stdin.
  const stdin = argv.length > 0 && parseHookArgs(argv).problems.length > 0 && isTerminal(0) ? '' : readStdin();
  const result = await runHook({ argv, stdin, env: process.env, cwd: process.cwd() });
  writeAll(1, result.response.stdout);
  writeAll(2, result.response.stderr);
  return { exitCode: result.response.exitCode, timedOut: result.timedOut, runKind: runKind(result.decision, result.event) };
}

function readStdin(): string {
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    // No stdin (closed or a terminal): treated as an empty, malformed event.
    return '';
  }
}

function isTerminal(fd: number): boolean {
  try {
    return fs.fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/** One writeSync, repeated only for a partial write or a busy non-blocking pipe. */
function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < buffer.length) {
    try {
      offset += fs.writeSync(fd, buffer, offset, buffer.length - offset);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') return;
    }
  }
}
