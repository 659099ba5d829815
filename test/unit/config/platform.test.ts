import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.ts';
import { readPlatformConfig } from '../../../src/config/platform.ts';

// The platform's mode: CRUCIBLE_MODE, and FAUCET_MODE, its former name, still read with a warning.

function refusedVariable(env: Record<string, string>): string | undefined {
  try {
    readPlatformConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error('the mode was accepted');
}

describe('readPlatformConfig', () => {
  it('is local without a setting, and says nothing', () => {
    expect(readPlatformConfig({})).toEqual({ mode: 'local', warnings: [] });
    expect(readPlatformConfig({ CRUCIBLE_MODE: '' })).toEqual({ mode: 'local', warnings: [] });
  });

  it('reads CRUCIBLE_MODE', () => {
    expect(readPlatformConfig({ CRUCIBLE_MODE: 'production' })).toEqual({ mode: 'production', warnings: [] });
    expect(readPlatformConfig({ CRUCIBLE_MODE: 'local' })).toEqual({ mode: 'local', warnings: [] });
  });

  it('still reads FAUCET_MODE, with a warning naming CRUCIBLE_MODE', () => {
    const { mode, warnings } = readPlatformConfig({ FAUCET_MODE: 'production' });
    expect(mode).toBe('production');
    expect(warnings).toEqual([
      expect.stringMatching(/^FAUCET_MODE is renamed CRUCIBLE_MODE .*FAUCET_MODE=production is read as CRUCIBLE_MODE=production; set CRUCIBLE_MODE instead\.$/),
    ]);
  });

  it('takes CRUCIBLE_MODE over FAUCET_MODE, and says FAUCET_MODE is not read', () => {
    expect(readPlatformConfig({ CRUCIBLE_MODE: 'local', FAUCET_MODE: 'production' })).toEqual({
      mode: 'local',
      warnings: ['FAUCET_MODE is no longer read: CRUCIBLE_MODE=local applies.'],
    });
  });

  it('refuses a bad value, naming the variable that holds it', () => {
    expect(refusedVariable({ CRUCIBLE_MODE: 'prod' })).toBe('CRUCIBLE_MODE');
    expect(refusedVariable({ FAUCET_MODE: 'staging' })).toBe('FAUCET_MODE');
    expect(() => readPlatformConfig({ CRUCIBLE_MODE: 'prod' })).toThrow(/^Invalid platform configuration: CRUCIBLE_MODE must be "local" or "production"/);
  });
});
