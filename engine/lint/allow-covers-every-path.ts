/**
 * An `allow` rule with `paths` approves a call only when its paths cover every path the
 * call touches (every reading of every path; for Bash, every file the command writes, all
 * of them known). A call that also touches something else is not approved by it, and goes
 * on to Claude Code's own permission flow. Said once per such rule, so the author is not
 * surprised that `mkdir -p allowed && echo b > outside.txt` gets no approval.
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

const SHELLS = ['Bash', 'PowerShell'];

export const allowCoversEveryPath = defineCheck({
  id: 'allow-covers-every-path',
  messages: {
    tools: 'Rule "{id}" approves a call only when its paths cover every path the call touches',
    shell: 'Rule "{id}" approves a call only when its paths cover every path the call touches: every file a {shell} command writes, all of them known',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      if (rule.outcome !== 'allow' || rule.raw.paths === undefined || rule.raw.paths === null) continue;
      const tools = rule.tools ?? [];
      const shell = SHELLS.find((s) => tools.some((t) => t === s || (t.includes('*') && new RegExp(`^${t.split('*').map(escape).join('.*')}$`).test(s))));
      out.push(report(this, {
        messageId: shell ? 'shell' : 'tools',
        data: { id: rule.id, shell: shell ?? '' },
        at: ctx.at(rule, ['paths'], 'key'),
        hint: 'a call that also touches a path the rule does not cover (or a command whose writes cannot be known) is neither approved nor refused by it: Claude Code asks as usual',
      }));
    }
    return out;
  },
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
