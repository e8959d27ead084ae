/**
 * Checks `{{placeholder}}` templates for unclosed or empty placeholders.
 */
import type { CompileContext } from './context';
import { atOffset, report } from './context';

/**
 * True when every `{{` has a matching `}}` with a name in between; otherwise reports
 * `invalid-template` at the offending `{{`. A `{{` whose `}}` comes only after another
 * `{{` is unclosed: `{{agent may not write {{path}}` renders its first `{{` as text.
 * @example checkTemplate(ctx, 'see {{path', '/rules/0/deny') // false
 */
export function checkTemplate(ctx: CompileContext, template: string, pointer: string): boolean {
  let from = 0;
  for (;;) {
    const open = template.indexOf('{{', from);
    if (open < 0) return true;
    const close = template.indexOf('}}', open + 2);
    const next = template.indexOf('{{', open + 2);
    if (close < 0 || (next >= 0 && next < close)) {
      report(ctx, 'invalid-template', 'Unclosed placeholder: "{{" without "}}"', atOffset(ctx, pointer, open));
      return false;
    }
    if (template.slice(open + 2, close).trim() === '') {
      report(ctx, 'invalid-template', 'Empty placeholder "{{}}"', atOffset(ctx, pointer, open), 'write a name such as {{path}} or {{agent}}');
      return false;
    }
    from = close + 2;
  }
}
