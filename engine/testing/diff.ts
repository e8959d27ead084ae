/**
 * A compact line diff for failure messages: `- ` lines only expected, `+ ` lines only
 * actual, `  ` lines in both. Unchanged runs longer than the context are folded.
 */

/**
 * Diffs two texts line by line (longest common subsequence).
 * @example lineDiff('a\nb', 'a\nc') // ['  a', '- b', '+ c']
 */
export function lineDiff(expected: string, actual: string, context = 2): string[] {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      lines.push(`- ${a[i++]}`);
    } else {
      lines.push(`+ ${b[j++]}`);
    }
  }
  return fold(lines, context);
}

/** Keeps `context` unchanged lines around each change; longer runs become `  ...`. */
function fold(lines: string[], context: number): string[] {
  const changed = lines.map((l) => !l.startsWith('  '));
  const near = (k: number) => {
    for (let d = -context; d <= context; d++) if (changed[k + d]) return true;
    return false;
  };
  const out: string[] = [];
  let hidden: string[] = [];
  const flush = () => {
    // Folding one line saves nothing: show it.
    out.push(...(hidden.length > 1 ? ['  ...'] : hidden));
    hidden = [];
  };
  lines.forEach((line, k) => {
    if (near(k)) {
      flush();
      out.push(line);
    } else hidden.push(line);
  });
  flush();
  return out;
}

/**
 * JSON with sorted keys and two-space indent, so equal values print equally.
 * @example stableJson({ b: 1, a: [2] }) // '{\n  "a": [\n    2\n  ],\n  "b": 1\n}'
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
