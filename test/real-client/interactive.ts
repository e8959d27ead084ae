/**
 * The interactive client, driven as a person would: Claude Code's full screen in a tmux
 * pane, keys sent, the screen read back. Used for what only the interactive screen shows
 * (the permission dialog, what a warning looks like once the user answers it).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One step of a script for the screen. */
export type ScreenStep =
  | { keys: string[] }
  | { waitFor: string; timeoutMs?: number }
  /** Saves the whole pane (with scrollback) under this name. */
  | { capture: string };

export interface ScreenSpec {
  binary: string;
  projectDir: string;
  homeDir: string;
  args: string[];
  env: Record<string, string>;
  steps: ScreenStep[];
}

export interface ScreenOutcome {
  captures: Record<string, string>;
  /** The step that timed out waiting, if any, and the screen then. */
  stuck: { waitFor: string; screen: string } | null;
}

/** The first-run state a person has already clicked through: onboarding, folder trust, the API key. */
function seedHome(spec: ScreenSpec): void {
  const key = spec.env.ANTHROPIC_API_KEY ?? '';
  const config = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
    projects: { [spec.projectDir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  fs.writeFileSync(path.join(spec.homeDir, '.claude.json'), JSON.stringify(config));
}

function tmux(socket: string, args: string[]): string {
  return execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
}

/** Waits without blocking: the model server answers from the same process meanwhile. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Starts the client in a detached tmux session, plays the steps, and kills the session.
 * @example await driveScreen({ ...spec, steps: [{ waitFor: 'manual mode' }, { keys: ['hi', 'Enter'] }, { capture: 'after' }] })
 */
export async function driveScreen(spec: ScreenSpec, modelUrl: string): Promise<ScreenOutcome> {
  seedHome(spec);
  const socket = path.join(spec.homeDir, 'tmux.sock');
  const env = { ...spec.env, ANTHROPIC_BASE_URL: modelUrl, TERM: 'xterm-256color' };
  const command = ['env', '-i', ...Object.entries(env).map(([k, v]) => quote(`${k}=${v}`)), quote(spec.binary), ...spec.args.map(quote)].join(' ');
  tmux(socket, ['new-session', '-d', '-s', 'client', '-x', '160', '-y', '50', '-c', spec.projectDir, command]);
  const screen = () => tmux(socket, ['capture-pane', '-p', '-S', '-1000', '-t', 'client']);
  const captures: Record<string, string> = {};
  try {
    for (const step of spec.steps) {
      if ('keys' in step) {
        for (const key of step.keys) {
          // A screen that just appeared may not take input yet; text goes literally, one-character keys as keys.
          await sleep(700);
          tmux(socket, ['send-keys', '-t', 'client', ...(key.length > 1 && key !== 'Enter' && key !== 'Escape' ? ['-l', key] : [key])]);
        }
      } else if ('waitFor' in step) {
        const deadline = Date.now() + (step.timeoutMs ?? 20_000);
        while (!screen().includes(step.waitFor)) {
          if (Date.now() > deadline) return { captures, stuck: { waitFor: step.waitFor, screen: screen() } };
          await sleep(200);
        }
      } else {
        captures[step.capture] = screen();
      }
    }
    return { captures, stuck: null };
  } finally {
    try {
      tmux(socket, ['kill-server']);
    } catch {
      // Already gone with the client.
    }
  }
}
