// Every refusal of a setting is a ConfigError, wherever it is read: start-up (the server, a
// worker, the build) prints its message alone, naming the variable, and stops.

export class ConfigError extends Error {
  override name = 'ConfigError';
  /** The variable at fault, when one is. */
  readonly variable: string | undefined;
  constructor(message: string, options: { variable?: string } = {}) {
    super(message);
    this.variable = options.variable;
  }
}

/** A refusal of one of the faucet's settings (src/config/faucet.ts): `Invalid faucet configuration: <variable> <reason>`. */
export class FaucetConfigError extends ConfigError {
  override name = 'FaucetConfigError';
  declare readonly variable: string;
  constructor(variable: string, reason: string) {
    super(`Invalid faucet configuration: ${variable} ${reason}`, { variable });
  }
}
