/**
 * The runner registered for one event in two settings files (project and local, say):
 * Claude Code runs every entry, so every such event runs the runner twice.
 */
import type { Diagnostic, LoadedFile } from '../types';
import { defineCheck, report } from './check';
import { runnerRoutes } from './routing';

export const settingsTwice = defineCheck({
  id: 'settings-twice',
  messages: {
    twice: 'The runner is registered for {event} in {files}: Claude Code runs each entry, so the runner runs {count} times for every {event} event',
  },
  check(ctx) {
    const root: LoadedFile | undefined = ctx.files.find((f) => f.root) ?? ctx.files[0];
    if (!root || ctx.settingsSources.length < 2) return [];
    const events = new Set(ctx.rules.flatMap((r) => r.events));
    const out: Diagnostic[] = [];
    for (const event of events) {
      const files = ctx.settingsSources.filter((s) => runnerRoutes(s.settings, event).length > 0).map((s) => s.file);
      if (files.length < 2) continue;
      out.push(report(this, {
        messageId: 'twice',
        data: { event, files: files.join(' and '), count: files.length },
        at: root.map.locate('/rules', 'key'),
        hint: 'keep one registration: "policy uninstall --scope local" removes the personal one',
      }));
    }
    return out;
  },
});
