/**
 * A wall-clock bound on synchronous work. A timer cannot fire while JavaScript runs, but V8
 * can stop a script run with a timeout (Node's vm watchdog thread): the work runs as that
 * script and is stopped, wherever it is (a parser, a regex, a loop), when the time is up.
 * Each call starts a watchdog thread (~0.1-0.4 ms), so only work that may be long pays.
 */
import type { Script } from 'vm';

/** What callWithin returns when the time ran out. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

const SLOT = '__hookpolicyBoundedCall';
type Slots = Record<string, (() => unknown) | undefined>;
let bounded: { script: Script; global: Slots } | null = null;

/**
 * `work()`, or TIMED_OUT when it runs longer than `ms` (then it was stopped where it was,
 * no `finally` of it run: what it left half-done must not be used). Nested calls (a regex
 * watchdog inside) are fine: the outer bound stops the inner work too.
 * @example callWithin(5000, () => evaluateFrom(run, 0)) // the Decision, or TIMED_OUT
 */
export function callWithin<T>(ms: number, work: () => T): T | typeof TIMED_OUT {
  if (!bounded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vm = require('vm') as typeof import('vm');
    bounded = { script: new vm.Script(`globalThis.${SLOT}()`), global: vm.runInThisContext('globalThis') as Slots };
  }
  const { script, global } = bounded;
  const outer = global[SLOT];
  global[SLOT] = work;
  try {
    return script.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)) }) as T;
  } catch (err) {
    if ((err as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return TIMED_OUT;
    throw err;
  } finally {
    global[SLOT] = outer;
  }
}
