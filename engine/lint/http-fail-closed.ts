/**
 * When events reach the runner as an HTTP hook (the policy server), a server that is down
 * is a connection error, which Claude Code treats as a non-blocking error unless the
 * handler says `onFailure: "block"`: the call goes through. Whatever on_error says, that is
 * a way out for the agent a rule confines (it runs as the user and can stop the server),
 * so `policy init` writes it on every http entry; a handler without it is the warning,
 * placed at `settings.on_error` when the policy fails closed, else at `rules`. (Where
 * Claude Code ignores onFailure, on-failure-ignored says so.)
 */
import { protocolFor } from '../protocol';
import type { Diagnostic, LoadedFile, SourceLocation } from '../types';
import { defineCheck, report } from './check';
import type { LintContext } from './context';
import { runnerRoutes } from './routing';

export const httpFailClosed = defineCheck({
  id: 'http-fail-closed',
  messages: {
    http: '{settings} sends {events} to the runner over HTTP without "onFailure": "block": when the policy server is down (an agent can stop it), Claude Code goes on as if no hook ran{closed}',
  },
  check(ctx) {
    const settings = ctx.settings;
    if (!settings) return [];
    const closed = closedAt(ctx);
    const root = ctx.files.find((f) => f.root) ?? ctx.files[0];
    const at = closed ?? root?.map.locate('/rules', 'key');
    if (!at) return [];
    const used = [...new Set(ctx.rules.flatMap((r) => r.events))];
    const events = used.filter((e) => !protocolFor(e)?.onFailureIgnored && runnerRoutes(settings, e).some((r) => r.kind === 'http' && r.onFailure !== 'block'));
    if (events.length === 0) return [];
    const out: Diagnostic[] = [report(this, {
      messageId: 'http',
      data: { settings: ctx.settingsFile, events: events.join(', '), closed: closed ? ', though on_error is closed' : '' },
      at,
      hint: 'run policy init again: it writes "onFailure": "block" on these entries (or route them with a command hook, "policy hook")',
    })];
    return out;
  },
});

/** Where on_error: closed is set (the top file's setting wins), or null when the policy fails open. */
export function closedAt(ctx: LintContext): SourceLocation | null {
  const setters = ctx.files.filter((f) => onError(f) !== undefined);
  const winner = setters.find((f) => f.root) ?? setters[setters.length - 1];
  const closed = ctx.policy ? ctx.policy.settings.onError === 'closed' : winner !== undefined && onError(winner) === 'closed';
  if (!closed) return null;
  return winner ? winner.map.locate('/settings/on_error') : null;
}

function onError(file: LoadedFile): unknown {
  const doc = file.doc as { settings?: { on_error?: unknown } } | null;
  return doc && typeof doc === 'object' && doc.settings && typeof doc.settings === 'object' ? doc.settings.on_error : undefined;
}
