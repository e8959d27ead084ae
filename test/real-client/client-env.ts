/**
 * The real client's whole environment: nothing of the caller's own Claude Code, no
 * telemetry. Shared by the suite (client.ts) and the bench (scripts/bench/client.mjs,
 * through the session runner's bundle).
 */
import * as os from 'node:os';

/** @example clientEnv('/tmp/home').HOME // '/tmp/home' */
export function clientEnv(homeDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: homeDir,
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    ANTHROPIC_API_KEY: 'sk-ant-scripted-dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // As root, --permission-mode bypassPermissions starts only inside a declared sandbox.
    IS_SANDBOX: '1',
    ...extra,
  };
}
