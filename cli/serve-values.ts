/**
 * The values `policy serve` and `policy init --mode http` take, read the same way by the
 * CLI, which reports a bad one, and by dist/ensure.cjs (ensure-main.ts), which leaves a bad
 * one to the CLI. Decimal digits only: `0x1f`, ` 8707`, `1e3` or an empty string are not
 * what anyone means by a port or a number of seconds.
 */

/**
 * A TCP port, 0 to 65535 (0: any free port, where a command allows it); null otherwise.
 * @example portNumber('08707') // 8707
 */
export function portNumber(text: string): number | null {
  return /^[0-9]{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : null;
}

/**
 * A number of seconds, with an optional fraction; null otherwise.
 * @example idleSeconds('0.5') // 0.5
 */
export function idleSeconds(text: string): number | null {
  return /^[0-9]+(?:\.[0-9]+)?$/.test(text) ? Number(text) : null;
}

/**
 * `--on-error`'s two modes; null for anything else.
 * @example onErrorMode('closed') // 'closed'
 */
export function onErrorMode(text: string): 'open' | 'closed' | null {
  return text === 'open' || text === 'closed' ? text : null;
}
