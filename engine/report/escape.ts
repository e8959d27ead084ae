/**
 * Text from the decision log into HTML. Every string of the log (paths, commands, rule
 * ids, agent names, reasons, errors) was written by or about the confined agent, so each
 * one goes through here: the five HTML specials become entities, and characters that
 * would hide or disguise text (controls, bidi overrides, zero-width marks, lone
 * surrogates) are shown as their escapes, so `a.ts\u202Esh.exe` cannot pass for another path.
 */

/** HTML specials, and characters that are invisible or reorder the text around them. */
const UNSAFE = /[&<>"']|[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `\n`, `\t`, `\u202e`: how a hidden character is shown. */
function shown(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === '\r') return '\\r';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text for an element's content: specials as entities, hidden characters as a marked escape.
 * @example escapeText('<b>\u202e') // '&lt;b&gt;<span class="esc">\\u202e</span>'
 */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, (c) => ENTITIES[c] ?? `<span class="esc">${shown(c)}</span>`);
}

/**
 * Text for a double-quoted attribute value: specials as entities, hidden characters as plain escapes.
 * @example escapeAttribute('a" onmouseover="x') // 'a&quot; onmouseover=&quot;x'
 */
export function escapeAttribute(text: string): string {
  return text.replace(UNSAFE, (c) => ENTITIES[c] ?? shown(c));
}

/**
 * `text` cut to at most `max` UTF-16 units, an ellipsis included, never inside a surrogate pair.
 * @example clip('abcdef', 4) // 'abc…'
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A whole number with thousands separators, the same in every locale.
 * @example formatCount(1234567) // '1,234,567'
 */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
