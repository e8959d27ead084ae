/**
 * One line of a JSONL file as a plain object, for the readers of files an agent may have
 * written to (the decision log, the memory journal): anything else is null, never thrown.
 */

/**
 * The line parsed, when it is a JSON object (not an array, not null); otherwise null.
 * @example jsonObject('{"a":1}') // { a: 1 }
 * @example jsonObject('[1]') // null
 */
export function jsonObject(line: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
