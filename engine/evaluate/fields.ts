/**
 * Reading event fields by dotted path (`tool_input.command`), tolerating any shape.
 */

const splitCache = new Map<string, string[]>();

/**
 * The value at a dotted path, or undefined when any step is missing or not an object.
 * @example getField({ tool_input: { url: 'x' } }, 'tool_input.url') // 'x'
 */
export function getField(root: unknown, dotted: string): unknown {
  let parts = splitCache.get(dotted);
  if (!parts) {
    parts = dotted.split('.');
    splitCache.set(dotted, parts);
  }
  let value = root;
  for (let i = 0; i < parts.length; i++) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[parts[i]];
  }
  return value;
}

/**
 * A scalar as text: strings as they are, numbers and booleans printed; anything else undefined.
 * @example scalarText(3) // '3'
 */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * Any value as text for templates: scalars printed, objects and arrays as JSON, null/undefined as undefined.
 * @example valueText({ a: 1 }) // '{"a":1}'
 */
export function valueText(value: unknown): string | undefined {
  const scalar = scalarText(value);
  if (scalar !== undefined) return scalar;
  if (value === null || value === undefined || typeof value === 'function') return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Cuts text to Claude Code's 10,000-character limit. */
export function cutText(text: string, limit = 10_000): string {
  return text.length > limit ? text.slice(0, limit) : text;
}
