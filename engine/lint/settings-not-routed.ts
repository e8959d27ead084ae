/**
 * A rule that never fires because Claude Code's settings do not hand its event (or, on
 * a tool event, its tool) to the runner.
 */
import { outcomeSupport, protocolFor } from '../protocol';
import type { Diagnostic } from '../types';
import { defineCheck, onSegments, report } from './check';
import type { LintCheck } from './check';
import type { LintContext, LintRule } from './context';
import { toolAt } from './context';
import { routeCoversAllTools, routeCoversTool, runnerRoutes } from './routing';
import type { RunnerRoute } from './routing';

export const settingsNotRouted = defineCheck({
  id: 'settings-not-routed',
  messages: {
    disabled: 'Rule "{id}" never fires: {settings} sets disableAllHooks',
    event: 'Rule "{id}" never fires: {settings} does not send {event} to the runner',
    tool: 'Rule "{id}" never fires for {tool}: {settings} sends {event} to the runner only for {matchers}',
    anyTool: 'Rule "{id}" applies to every tool, but {settings} sends {event} to the runner only for {matchers}',
  },
  check(ctx) {
    const settings = ctx.settings;
    if (!settings) return [];
    const out: Diagnostic[] = [];
    for (const rule of ctx.rules) {
      for (const event of rule.events) {
        const p = protocolFor(event);
        if (!p || p.unsupported) continue;
        // A rule whose outcome cannot work on the event does nothing there anyway (outcome-impossible), unless it records.
        if (rule.outcome && rule.raw.record === undefined && !outcomeSupport(event, rule.outcome).supported) continue;
        const data = { id: rule.id, event, settings: ctx.settingsFile };
        const hint = `add a "policy hook" handler for ${event} to ${ctx.settingsFile}, or run "policy init"`;
        const onAt = ctx.at(rule, onSegments(rule.raw, event));
        if (settings.disableAllHooks) {
          out.push(report(this, { messageId: 'disabled', data, at: onAt, hint: `remove disableAllHooks from ${ctx.settingsFile}` }));
          break;
        }
        const routes = runnerRoutes(settings, event);
        if (routes.length === 0) {
          out.push(report(this, { messageId: 'event', data, at: onAt, hint }));
          continue;
        }
        if (p.tool) out.push(...toolGaps(this, ctx, rule, event, routes, hint));
      }
    }
    return out;
  },
});

function toolGaps(check: Pick<LintCheck, 'id' | 'messages'>, ctx: LintContext, rule: LintRule, event: string, routes: RunnerRoute[], hint: string): Diagnostic[] {
  const matchers = describe(routes);
  const data = { id: rule.id, event, settings: ctx.settingsFile, matchers };
  if (!rule.tools) {
    if (routes.some(routeCoversAllTools)) return [];
    return [report(check, { messageId: 'anyTool', data, at: ctx.at(rule, onSegments(rule.raw, event)), hint })];
  }
  const out: Diagnostic[] = [];
  for (const tool of rule.tools) {
    if (routes.some((r) => routeCoversTool(r, tool, event))) continue;
    out.push(report(check, { messageId: 'tool', data: { ...data, tool }, at: toolAt(ctx, rule, tool), hint }));
  }
  return out;
}

function describe(routes: RunnerRoute[]): string {
  const parts = routes.map((r) => (r.ifTool ? `"${r.matcher ?? '*'}" if ${r.ifTool}(...)` : `"${r.matcher}"`));
  return [...new Set(parts)].join(', ');
}
