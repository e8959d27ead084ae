/**
 * The version that keys compiled-policy caches: the package version plus a build id that
 * scripts/build.mjs stamps from a hash of the engine's sources, so a rebuilt engine never
 * reads an artefact compiled by another build.
 */
import { version } from '../../package.json';

declare const HOOKPOLICY_BUILD_ID: string | undefined;

/** @example ENGINE_VERSION // '0.1.0+3f9a1c2e' ('0.1.0+dev' when not bundled) */
export const ENGINE_VERSION: string = `${version}+${typeof HOOKPOLICY_BUILD_ID === 'string' ? HOOKPOLICY_BUILD_ID : 'dev'}`;

/** The package version alone, for `policy --version`. */
export const PACKAGE_VERSION: string = version;
