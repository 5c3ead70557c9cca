// The base of every refused setting. Kept in a module of its own: http/config.ts reads the payment
// and cache settings, whose errors extend this one, so defining it there would be an import cycle.

/** A setting of the environment that cannot be used: `npm start` refuses to start with its message (bin/start.ts). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
