/**
 * Input too large to check in time. An event whose command or path is longer than
 * `max_input_bytes` is not analysed, a pattern the watchdog stopped did not finish, and an
 * event that outlasted deadline_ms was not fully evaluated: in each case a rule that would
 * deny, ask or block cannot say the call is fine, so it takes the policy's `oversized`
 * outcome (ask by default) instead of failing per on_error, which with `open` let the call
 * through. Rules that only allow, warn or add context do not apply.
 */
import { outcomeSupport } from '../protocol';
import type { CompiledRule, CompiledSettings, Outcome, OversizedOutcome } from '../types';

/** The default `max_input_bytes`: the longest command or path the runner parses. */
export const DEFAULT_MAX_INPUT_BYTES = 16_384;

/**
 * Events whose JSON is longer than this are evaluated under a wall-clock watchdog of
 * deadline_ms (evaluate.ts; ~0.1-0.4 ms to start). Smaller ones hold at most a 4 KiB
 * command, which the shell parser reads in well under a second, and patterns on texts
 * this short run natively or under their own watchdog, capped by the time left.
 */
export const GUARDED_EVENT_BYTES = 4096;

/** What the policy says about oversized input: its `oversized` outcome and its size limit. */
export interface InputLimits {
  outcome: OversizedOutcome;
  maxBytes: number;
}

/**
 * The policy's limits, defaults filled in (settings compiled before these existed have neither).
 * @example inputLimits(policy.settings) // { outcome: 'ask', maxBytes: 16384 }
 */
export function inputLimits(settings: Pick<CompiledSettings, 'oversized' | 'maxInputBytes'>): InputLimits {
  const max = settings.maxInputBytes;
  return {
    outcome: settings.oversized ?? 'ask',
    maxBytes: typeof max === 'number' && max > 0 ? max : DEFAULT_MAX_INPUT_BYTES,
  };
}

/**
 * `oversized` and `max_input_bytes` from a file's settings (for the settings compiler: the
 * first file in precedence order that gives each wins).
 * @example inputLimitSettings({ oversized: 'deny', max_input_bytes: 65536 }) // { oversized: 'deny', maxInputBytes: 65536 }
 */
export function inputLimitSettings(settings: unknown): Pick<CompiledSettings, 'oversized' | 'maxInputBytes'> {
  const s = typeof settings === 'object' && settings !== null ? settings as Record<string, unknown> : {};
  const out: Pick<CompiledSettings, 'oversized' | 'maxInputBytes'> = {};
  if (s.oversized === 'deny' || s.oversized === 'ask' || s.oversized === 'allow' || s.oversized === 'ignore') out.oversized = s.oversized;
  if (typeof s.max_input_bytes === 'number' && Number.isInteger(s.max_input_bytes) && s.max_input_bytes > 0) out.maxInputBytes = s.max_input_bytes;
  return out;
}

/**
 * The UTF-8 size of `text` when it is more than `limit` bytes, else null; reads the text
 * only when its length leaves the answer open.
 * @example oversizedBytes('x'.repeat(20), 16) // 20
 */
export function oversizedBytes(text: string, limit: number): number | null {
  if (text.length > limit) return utf8Length(text);
  // Each UTF-16 unit is at most 3 bytes.
  if (text.length * 3 <= limit) return null;
  const bytes = utf8Length(text);
  return bytes > limit ? bytes : null;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * What `rule` answers when it cannot check the event: the policy's `oversized` outcome for
 * a rule that denies, asks or blocks ('ask' becomes the rule's own outcome on an event that
 * cannot ask: a Stop cannot be asked about, only blocked), 'ignore' for any other rule.
 * @example oversizedOutcome(denyRule, 'PreToolUse', 'ask') // 'ask'
 */
export function oversizedOutcome(rule: CompiledRule, eventName: string, setting: OversizedOutcome): Outcome | 'ignore' {
  if (!isRestrictive(rule)) return 'ignore';
  if (setting === 'ignore') return 'ignore';
  if (setting === 'ask' && !outcomeSupport(eventName, 'ask').supported) return rule.outcome;
  return setting;
}

/**
 * A rule that denies, asks or blocks: one that must not let a call through because it
 * could not check it (here, and for a memory store it cannot read: rule.ts).
 * @example isRestrictive({ outcome: 'ask' }) // true
 */
export function isRestrictive<R extends Pick<CompiledRule, 'outcome'>>(rule: R): rule is R & { outcome: 'deny' | 'ask' | 'block' } {
  return rule.outcome === 'deny' || rule.outcome === 'ask' || rule.outcome === 'block';
}

/**
 * The message of a rule that took the oversized outcome: what could not be checked, and
 * that the call was therefore not judged by the rule.
 * @example oversizedMessage('no-rm', 'the Bash command is 120000 bytes, more than max_input_bytes (16384)')
 */
export function oversizedMessage(ruleId: string, why: string): string {
  return `hookpolicy could not check this call against rule "${ruleId}": ${why}. It was not judged, so it is not let through unseen (settings.oversized).`;
}
