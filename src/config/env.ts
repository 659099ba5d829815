/** Environment variables by name, as process.env holds them (src/config/config.ts reads it). */
export type Env = Readonly<Record<string, string | undefined>>;

/** A variable's value; an empty one (`NAME=` in .env, `NAME= command`) means unset. */
export function envValue(env: Env, name: string): string | undefined {
  return env[name] === '' ? undefined : env[name];
}
