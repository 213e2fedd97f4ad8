/**
 * Environments as data: an environment has a NAME (SESAME_ENV: a region such as production-us, eu-cell-2)
 * and a KIND (SESAME_ENV_KIND) that every rule follows. A production kind requires mTLS between the
 * services, real stores, SMTP and SMS, and refuses the development keys; a sandbox kind is deployed like
 * production but may run without mTLS; development and test may keep mail and texts in memory.
 * docs/operations.md ("Environments and regions") describes the decision.
 */
export const environmentKinds = ['development', 'test', 'sandbox', 'production'] as const;
export type EnvironmentKind = (typeof environmentKinds)[number];

/** An environment's name (SESAME_ENV): one of the named environments below, or any region name. */
export type Environment = string;

/**
 * The names that meant a kind before kinds existed. They keep it (SESAME_ENV=production-eu alone is still a
 * production environment), and SESAME_ENV_KIND may not contradict them. Any other name needs SESAME_ENV_KIND.
 */
export const namedEnvironments: Readonly<Record<string, EnvironmentKind>> = Object.freeze({
  development: 'development',
  test: 'test',
  sandbox: 'sandbox',
  production: 'production',
  'production-eu': 'production',
});
export const environments = Object.keys(namedEnvironments);

/** A region name: a DNS label (lower-case letters, digits and inner hyphens, at most 63 characters). */
export const environmentNamePattern = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The environment part of a configuration. */
export interface EnvironmentVars {
  SESAME_ENV: Environment;
  SESAME_ENV_KIND?: EnvironmentKind;
}

/**
 * The kind of an environment, given its configuration (loadConfig fills SESAME_ENV_KIND in) or a bare name.
 * A bare name that is not a named environment counts as production: an unknown environment gets the
 * strictest rules, never the most lenient. Rules take the configuration, so a region's declared kind counts.
 */
export function kindOf(env: Environment | EnvironmentVars): EnvironmentKind {
  if (typeof env !== 'string' && env.SESAME_ENV_KIND) return env.SESAME_ENV_KIND;
  const name = typeof env === 'string' ? env : env.SESAME_ENV;
  return namedEnvironments[name] ?? 'production';
}

export const isProductionLike = (env: Environment | EnvironmentVars): boolean => kindOf(env) === 'production';
/** Development and test: mail and texts may stay in memory, nobody outside the process needs them. */
export const isDevelopmentLike = (env: Environment | EnvironmentVars): boolean => {
  const kind = kindOf(env);
  return kind === 'development' || kind === 'test';
};

/**
 * The kind a raw SESAME_ENV / SESAME_ENV_KIND pair resolves to, or the problems (in loadConfig's
 * "VARIABLE: message" form) that make it unusable. A malformed name is left to the schema's own message.
 */
export function resolveEnvironment(
  name: string,
  declared: string | undefined,
): { kind?: EnvironmentKind; problems: string[] } {
  const kind = declared ? (environmentKinds as readonly string[]).find((k) => k === declared) : undefined;
  if (!environmentNamePattern.test(name) || (declared && !kind)) return { problems: [] };
  const named = namedEnvironments[name];
  if (named && kind && kind !== named)
    return {
      problems: [
        `SESAME_ENV_KIND: ${name} is a ${named} environment; give a region of kind ${kind} its own name`,
      ],
    };
  if (!named && !kind)
    return {
      problems: [
        `SESAME_ENV: ${name} is not one of ${environments.join(', ')}; a region with its own name sets SESAME_ENV_KIND (${environmentKinds.join(', ')})`,
      ],
    };
  return { kind: (kind ?? named) as EnvironmentKind, problems: [] };
}
