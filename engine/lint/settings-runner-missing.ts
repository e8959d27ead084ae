/**
 * A runner entry that starts a file that is not there (a removed node_modules, a moved
 * node): Claude Code then lets every event it routes through, or refuses them all with
 * `onFailure: "block"`.
 */
import type { Diagnostic, LoadedFile } from '../types';
import { defineCheck, report } from './check';
import { handlerWords } from '../init/runner';
import { isRunnerHandler } from './routing';

export const settingsRunnerMissing = defineCheck({
  id: 'settings-runner-missing',
  messages: {
    missing: 'The runner entry in {file} starts {path}, which does not exist: the events it routes are not checked',
  },
  check(ctx) {
    const root: LoadedFile | undefined = ctx.files.find((f) => f.root) ?? ctx.files[0];
    if (!root) return [];
    const out: Diagnostic[] = [];
    const seen = new Set<string>();
    for (const source of ctx.settingsSources) {
      for (const groups of Object.values(source.settings.hooks)) {
        for (const h of groups.flatMap((g) => g.hooks)) {
          if (h.type === 'http' || !isRunnerHandler(h)) continue;
          for (const word of (handlerWords({ type: 'command', ...h }) ?? []).slice(0, 5)) {
            const file = ctx.projectRoot === null ? word : word.split('${CLAUDE_PROJECT_DIR}').join(ctx.projectRoot);
            const key = `${source.file}\0${word}`;
            if (!file.startsWith('/') || file.includes('${') || seen.has(key) || ctx.exists(file)) continue;
            seen.add(key);
            out.push(report(this, {
              messageId: 'missing',
              data: { file: source.file, path: word },
              at: root.map.locate('/rules', 'key'),
              hint: word.includes('node_modules') ? 'run "npm install" (or "npm ci") in the project' : 'run "policy init" again to write the paths of this machine',
            }));
          }
        }
      }
    }
    return out;
  },
});
