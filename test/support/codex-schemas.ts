/**
 * Codex CLI's hook output schemas, read from the installed binary (the pinned
 * `@openai/codex` dev dependency): Codex embeds one JSON schema per event and direction
 * (`pre-tool-use.command.output`, ...), closed with `additionalProperties: false`. Tests
 * validate what the Codex adapter writes against them, so a field Codex would reject (and
 * then run the tool) fails a test, not a session.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The native binary of the installed Codex platform package, or null when there is none here. */
export function codexBinaryPath(): string | null {
  const triples: Record<string, string> = { 'linux-x64': 'x86_64-unknown-linux-musl', 'linux-arm64': 'aarch64-unknown-linux-musl', 'darwin-x64': 'x86_64-apple-darwin', 'darwin-arm64': 'aarch64-apple-darwin' };
  const key = `${process.platform}-${process.arch}`;
  const triple = triples[key];
  if (!triple) return null;
  try {
    const dir = path.dirname(require.resolve(`@openai/codex-${key}/package.json`));
    const file = path.join(dir, 'vendor', triple, 'bin', 'codex');
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** The end (exclusive) of the JSON object that starts at `start`, or -1. */
function objectEnd(data: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < data.length && i < start + 200_000; i++) {
    const c = data[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i + 1;
  }
  return -1;
}

let cache: Map<string, Record<string, unknown>> | undefined;

/**
 * Every schema embedded in the binary, by its title (`stop.command.output`).
 * @example codexSchemas(file).get('pre-tool-use.command.output')
 */
export function codexSchemas(binary: string): Map<string, Record<string, unknown>> {
  if (cache) return cache;
  const data = fs.readFileSync(binary);
  const schemas = new Map<string, Record<string, unknown>>();
  const needle = Buffer.from('"$schema"');
  for (let at = data.indexOf(needle); at >= 0; at = data.indexOf(needle, at + 1)) {
    let open = at - 1;
    while (open > 0 && (data[open] === 0x20 || data[open] === 0x0a || data[open] === 0x0d || data[open] === 0x09)) open--;
    if (data[open] !== 0x7b) continue;
    const end = objectEnd(data, open);
    if (end < 0) continue;
    try {
      const schema = JSON.parse(data.subarray(open, end).toString('utf8')) as Record<string, unknown>;
      if (typeof schema.title === 'string') schemas.set(schema.title, schema);
    } catch {
      // Not a schema after all.
    }
  }
  return (cache = schemas);
}
