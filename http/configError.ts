// The base of every refused setting. Kept in a module of its own: http/config.ts reads the payment
// and cache settings, whose errors extend this one, so defining it there would be an import cycle.

/** A setting of the environment that cannot be used: `npm start` refuses to start with its message (bin/start.ts). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A true/false setting: true/1/yes or false/0/no, any case; unset or empty gives `fallback`. Anything
 * else is refused with `refuse`'s error (each setting's own ConfigError kind), naming the variable.
 */
export function booleanSetting(env: NodeJS.ProcessEnv, name: string, fallback: boolean, refuse: (message: string) => ConfigError): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw refuse(`${name} must be true or false (got "${env[name]}")`);
}
