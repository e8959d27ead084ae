#!/usr/bin/env node
'use strict';
// `policy hook` runs on every Claude Code hook event: it loads only dist/hook.cjs
// (no commander, yaml or ajv). Everything else, `policy hook --help` included, goes
// through the commander CLI.

const args = process.argv.slice(2);
if (args[0] === 'hook' && !args.includes('--help') && !args.includes('-h')) {
  let hook;
  try {
    hook = require('../dist/hook.cjs');
  } catch (e) {
    // The runner itself is missing (package not built): say so, visibly, without a trace.
    const message = `hookpolicy: error internal-error: cannot load the hook runner (${e && e.message}) (failing open: the event was not checked)`;
    process.stdout.write(`${JSON.stringify({ systemMessage: message })}\n`);
    process.stderr.write(`${message}\n`);
    return;
  }
  hook.main(process.argv.slice(3)).then((result) => {
    process.exitCode = result.exitCode;
    // After a deadline, evaluation may still hold the event loop open: stop now.
    if (result.timedOut) process.exit();
  });
} else {
  require('../dist/cli.cjs').main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
