/**
 * Checks `settings.log.webhook.body`: each `{{name}}` in its strings must be a value the
 * body can render (render/webhook-body.ts). An unknown one is a warning, never an error:
 * a setting's error would stop the whole policy, and the name only renders as empty text.
 */
import { toPointer } from '../load/source-map';
import { bodyStrings, unknownBodyNames, WEBHOOK_BODY_VALUES } from '../render/webhook-body';
import { atOffset, isObject, report, type CompileContext } from './context';

/**
 * Reports `template-unknown-value` at each placeholder of the file's webhook body that
 * names no value.
 * @example checkWebhookBody(ctx) // body { agentName: '{{agnt}}' }: one warning at the {{
 */
export function checkWebhookBody(ctx: CompileContext): void {
  const doc = ctx.file.doc;
  const settings = isObject(doc) ? doc.settings : undefined;
  const log = isObject(settings) ? settings.log : undefined;
  const webhook = isObject(log) ? log.webhook : undefined;
  if (!isObject(webhook) || !isObject(webhook.body)) return;
  const known = Object.keys(WEBHOOK_BODY_VALUES).map((n) => `{{${n}}}`).join(', ');
  for (const { at, text } of bodyStrings(webhook.body, ['settings', 'log', 'webhook', 'body'])) {
    for (const { name, offset } of unknownBodyNames(text)) {
      report(ctx, 'template-unknown-value', `settings.log.webhook.body: {{${name}}} has no value in a webhook body`,
        atOffset(ctx, toPointer(at), offset), `a body knows ${known}`);
    }
  }
}
