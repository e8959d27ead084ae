/**
 * Codex edits files with one tool, `apply_patch`, whose hook input is the patch text
 * (`tool_input.command`). The rules are written against Claude Code's Write and Edit, one
 * file each, so a patch is read as the file operations it holds: each becomes a Write (a
 * file added, or the target of a move) or an Edit (a file updated, deleted, or moved away).
 *
 * Read leniently, as the confined agent may write it: a marker line counts wherever it is
 * and whatever whitespace surrounds it, so a patch Codex applies cannot touch a file this
 * reading does not name.
 */

/** One file a patch writes. */
export interface PatchFile {
  /** Write: the file is created (or a move's target); Edit: an existing file changes or goes. */
  tool: 'Write' | 'Edit';
  /** As the patch names it: relative to the call's cwd, or absolute. */
  path: string;
  /** Add: the new file's text. Update: the lines removed and added (context lines in both). */
  input: Record<string, string>;
  /** What the patch does to the file. */
  op: 'add' | 'update' | 'delete' | 'move';
}

const MARKER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/;

/**
 * The files a patch writes, in the order it names them; [] when it names none.
 * @example patchFiles('*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch')
 *   // [{ tool: 'Write', path: 'a.txt', input: { content: 'hi\n' }, op: 'add' }]
 */
export function patchFiles(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let current: { file: PatchFile; removed: string[]; added: string[] } | null = null;
  const close = (): void => {
    if (!current) return;
    const { file, removed, added } = current;
    if (file.op === 'add') file.input.content = added.map((l) => `${l}\n`).join('');
    else if (file.op === 'update' || file.op === 'move') {
      file.input.old_string = removed.join('\n');
      file.input.new_string = added.join('\n');
    }
    current = null;
  };
  for (const raw of patch.split(/\r?\n/)) {
    const line = raw.trim();
    const m = MARKER.exec(line);
    if (m) {
      const path = m[2].trim();
      if (m[1] === 'Move to') {
        // The file being updated moves: its old path goes (an Edit) and the new one is written.
        if (current) current.file.op = 'move';
        files.push({ tool: 'Write', path, input: {}, op: 'move' });
        continue;
      }
      close();
      const op = m[1] === 'Add File' ? 'add' : m[1] === 'Update File' ? 'update' : 'delete';
      const file: PatchFile = { tool: op === 'add' ? 'Write' : 'Edit', path, input: {}, op };
      files.push(file);
      current = { file, removed: [], added: [] };
      continue;
    }
    if (!current || line.startsWith('*** ')) continue;
    if (raw.startsWith('+')) current.added.push(raw.slice(1));
    else if (raw.startsWith('-')) current.removed.push(raw.slice(1));
    else if (raw.startsWith(' ')) {
      current.added.push(raw.slice(1));
      current.removed.push(raw.slice(1));
    }
  }
  close();
  return files;
}
