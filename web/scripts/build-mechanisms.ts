import { fileURLToPath } from 'node:url';

/**
 * The web build's performance mechanisms (decision 0007, "The seam"), each on by default. A measurement build turns
 * some off with `PORTAL_WEB_MECHANISMS_OFF=antd-stylesheet,antd-rewire,signin-batch` and writes elsewhere with
 * `PORTAL_WEB_OUT_DIR` (default web/dist), so that bench/ablation.ts can compare it with the default build. Read by
 * vite.config.ts and scripts/dashboard-styles.tsx at build time only.
 */
export const WEB_MECHANISMS = {
  /** The dashboard's antd styles as a stylesheet made at build time (scripts/dashboard-styles.tsx). */
  'antd-stylesheet': "antd's dashboard styles made at build time",
  /** The plugins in vite.config.ts that point antd's heavy imports at smaller modules or load them on first use. */
  'antd-rewire': "antd's imports rewired (form context, lazy pieces)",
  /** The sign-in's reads in one POST /subrequests (lib/jsonapi/subrequests.ts); off: one request per read. */
  'signin-batch': "the sign-in's reads in one batch",
} as const;

export type WebMechanism = keyof typeof WEB_MECHANISMS;

/** The web mechanisms on, from PORTAL_WEB_MECHANISMS_OFF; an unknown name stops the build. */
export function webMechanisms(env: NodeJS.ProcessEnv = process.env): Record<WebMechanism, boolean> {
  const names = (env.PORTAL_WEB_MECHANISMS_OFF ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const known = Object.keys(WEB_MECHANISMS) as WebMechanism[];
  const unknown = names.filter((name) => !(known as string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(`PORTAL_WEB_MECHANISMS_OFF: unknown mechanism ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return Object.fromEntries(known.map((name) => [name, !names.includes(name)])) as Record<WebMechanism, boolean>;
}

/** Where the build writes: PORTAL_WEB_OUT_DIR, or web/dist. */
export const webOutDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.PORTAL_WEB_OUT_DIR || fileURLToPath(new URL('../dist', import.meta.url));
