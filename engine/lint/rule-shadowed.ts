/**
 * A rule that never changes the decision: an earlier rule with the same or broader
 * conditions (each condition absent or identical) always fires too, with an outcome at
 * least as strong. Contexts and warnings accumulate, so only deny/block/ask/allow shadow.
 */
import type { Diagnostic, Outcome } from '../types';
import { defineCheck, report } from './check';
import type { LintRule } from './context';
import { splitNames } from './context';

const RANK: Partial<Record<Outcome, number>> = { deny: 3, block: 3, ask: 2, allow: 1 };
const CONDITIONS = ['tools', 'prompts', 'agents', 'match', 'paths', 'command', 'when'] as const;

export const ruleShadowed = defineCheck({
  id: 'rule-shadowed',
  messages: {
    shadowed: 'Rule "{id}" never decides anything: rule "{by}" ({where}) applies whenever it does and decides {outcome} first',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    ctx.rules.forEach((later, j) => {
      const by = ctx.rules.slice(0, j).find((earlier) => shadows(earlier, later));
      if (!by) return;
      const at = ctx.at(by, ['id']);
      out.push(report(this, {
        messageId: 'shadowed',
        data: { id: later.id, by: by.id, where: by.file === later.file ? `line ${at.line}` : `${at.file}:${at.line}`, outcome: by.outcome ?? '' },
        at: ctx.at(later, ['id']),
        hint: `narrow rule "${by.id}", move this rule before it, or remove it`,
      }));
    });
    return out;
  },
});

/** True when `a` (earlier) fires whenever `b` would, and its outcome wins or ties. */
function shadows(a: LintRule, b: LintRule): boolean {
  if (a.id === b.id || !a.outcome || !b.outcome) return false;
  const ra = RANK[a.outcome];
  const rb = RANK[b.outcome];
  if (ra === undefined || rb === undefined || ra < rb) return false;
  if (b.events.length === 0 || !b.events.every((e) => a.events.includes(e))) return false;
  // A rule that reads files or requires them may not fire; it shadows nothing.
  if (a.raw.let !== undefined || a.raw.require !== undefined || a.raw.only_if_exists !== undefined) return false;
  if (!bypassedTogether(a, b)) return false;
  return CONDITIONS.every((k) => a.raw[k] === undefined || canonical(k, a.raw[k]) === canonical(k, b.raw[k]));
}

/** Every switch that turns `a` off also turns `b` off (so `b` never fires alone). */
function bypassedTogether(a: LintRule, b: LintRule): boolean {
  if (a.compiled && b.compiled) {
    const off = b.compiled.bypasses ?? [];
    return (a.compiled.bypasses ?? []).every((i) => off.includes(i));
  }
  return a.file === b.file;
}

/** One text per condition value, so `Write|Edit` equals `[Edit, Write]`. */
function canonical(key: (typeof CONDITIONS)[number], value: unknown): string {
  if (value === undefined) return '';
  if (key === 'tools') return JSON.stringify(splitNames(value)?.sort());
  if (key === 'prompts' || key === 'agents' || key === 'command') return JSON.stringify((Array.isArray(value) ? [...value] : [value]).sort());
  if (key === 'when') return String(value).trim();
  return stable(value);
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
