/**
 * Every lint check, in the order their diagnostics are listed for one position.
 * Adding a check: write engine/lint/<code>.ts, add its code to DIAGNOSTIC_CODES and a
 * section to docs/diagnostics.md, and list it here.
 */
import { allowCoversEveryPath } from './allow-covers-every-path';
import type { LintCheck } from './check';
import { finalCannotStop } from './final-cannot-stop';
import { httpFailClosed } from './http-fail-closed';
import { memoryOff } from './memory-off';
import { messageUserOnly } from './message-user-only';
import { outcomeImpossible } from './outcome-impossible';
import { promptsNoPromptEvent } from './prompts-no-prompt-event';
import { promptsUnset } from './prompts-unset';
import { onFailureIgnored } from './on-failure-ignored';
import { regexUnsafe } from './regex-unsafe';
import { ruleShadowed } from './rule-shadowed';
import { ruleUnreachable } from './rule-unreachable';
import { settingsMissing } from './settings-missing';
import { settingsNotRouted } from './settings-not-routed';
import { settingsRunnerMissing } from './settings-runner-missing';
import { settingsTwice } from './settings-twice';
import { templatePattern } from './template-pattern';
import { templateUnknownValue } from './template-unknown-value';
import { unsupportedEvent } from './unsupported-event';
import { webhookHeaderSecret } from './webhook-header-secret';
import { otlpHeaderSecret } from './otlp-header-secret';
import { hostEventMissing } from './host-event-missing';
import { hostHooksSkipped } from './host-hooks-skipped';
import { hostNoIdentity } from './host-no-identity';
import { hostOutcomeDegraded } from './host-outcome-degraded';

export const LINT_CHECKS: readonly LintCheck[] = [
  unsupportedEvent,
  outcomeImpossible,
  messageUserOnly,
  templateUnknownValue,
  templatePattern,
  ruleUnreachable,
  promptsNoPromptEvent,
  promptsUnset,
  allowCoversEveryPath,
  onFailureIgnored,
  ruleShadowed,
  finalCannotStop,
  memoryOff,
  regexUnsafe,
  settingsMissing,
  settingsNotRouted,
  settingsTwice,
  settingsRunnerMissing,
  httpFailClosed,
  webhookHeaderSecret,
  otlpHeaderSecret,
  hostOutcomeDegraded,
  hostEventMissing,
  hostNoIdentity,
  hostHooksSkipped,
];
