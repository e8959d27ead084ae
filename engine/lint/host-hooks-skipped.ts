/**
 * A host the project runs the runner under that would skip it: not trusted, switched off,
 * not registered for an event the policy needs (the reasons `policy init --check --host`
 * finds, handed in by the CLI). Reported at the host's own file.
 */
import { HOSTS } from '../hosts/registry';
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const hostHooksSkipped = defineCheck({
  id: 'host-hooks-skipped',
  messages: {
    skipped: '{host} would skip the runner: {reason}',
  },
  check(ctx) {
    const out: Diagnostic[] = [];
    for (const used of ctx.hosts) {
      for (const reason of used.skipped) {
        out.push(report(this, { messageId: 'skipped', data: { host: HOSTS[used.host].title, reason }, at: { file: used.file, line: 1, column: 1 }, hint: `policy init --host ${used.host} writes the entries; policy init --check --host ${used.host} says what is left` }));
      }
    }
    return out;
  },
});
