/**
 * No settings file of the project exists, so nothing hands an event to the runner: every
 * rule is written for nothing. (A settings file that exists but does not route an event a
 * rule needs is settings-not-routed.)
 */
import type { Diagnostic } from '../types';
import { defineCheck, report } from './check';

export const settingsMissing = defineCheck({
  id: 'settings-missing',
  messages: {
    missing: 'No Claude Code settings file in the project ({files}) sends events to the runner: none of these rules runs',
  },
  check(ctx) {
    if (!ctx.settingsChecked || ctx.settingsSources.length > 0 || ctx.rules.length === 0) return [];
    const root = ctx.files.find((f) => f.root) ?? ctx.files[0];
    if (!root) return [];
    const out: Diagnostic[] = [report(this, {
      messageId: 'missing',
      data: { files: ctx.settingsFile },
      at: root.map.locate('/rules', 'key'),
      hint: 'run "policy init" (it writes .claude/settings.json), or lint with --settings FILE where the runner is registered elsewhere',
    })];
    return out;
  },
});
