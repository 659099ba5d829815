import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDashboardConfig } from '../../../src/config/dashboard.ts';

describe('readDashboardConfig', () => {
  it('has the documented defaults', () => {
    expect(readDashboardConfig({})).toEqual({
      signUpsPerIp: { attempts: 10, windowSeconds: 3600 },
      signInsPerEmailAndIp: { attempts: 10, windowSeconds: 900 },
      signInsPerIp: { attempts: 50, windowSeconds: 900 },
      appsPerAccount: 20,
      scryptConcurrency: 2,
      scryptQueue: 20,
    });
  });

  it('lists every variable in .env.example with its default', () => {
    const text = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const listed = Object.fromEntries([...text.matchAll(/^(DASHBOARD_[A-Z_]+)=(.*)$/gm)].map((match) => [match[1]!, match[2]!]));
    expect(Object.keys(listed).sort()).toEqual([
      'DASHBOARD_APPS_PER_ACCOUNT',
      'DASHBOARD_SCRYPT_CONCURRENCY',
      'DASHBOARD_SCRYPT_QUEUE',
      'DASHBOARD_SIGN_INS_PER_EMAIL_AND_IP',
      'DASHBOARD_SIGN_INS_PER_IP',
      'DASHBOARD_SIGN_IN_WINDOW_SECONDS',
      'DASHBOARD_SIGN_UPS_PER_IP',
      'DASHBOARD_SIGN_UP_WINDOW_SECONDS',
    ]);
    expect(readDashboardConfig(listed)).toEqual(readDashboardConfig({}));
  });

  it('reads every variable', () => {
    const config = readDashboardConfig({
      DASHBOARD_SIGN_UPS_PER_IP: '3',
      DASHBOARD_SIGN_UP_WINDOW_SECONDS: '60',
      DASHBOARD_SIGN_INS_PER_EMAIL_AND_IP: ' 4 ',
      DASHBOARD_SIGN_INS_PER_IP: '8',
      DASHBOARD_SIGN_IN_WINDOW_SECONDS: '120',
      DASHBOARD_APPS_PER_ACCOUNT: '5',
      DASHBOARD_SCRYPT_CONCURRENCY: '1',
      DASHBOARD_SCRYPT_QUEUE: '0',
    });
    expect(config).toEqual({
      signUpsPerIp: { attempts: 3, windowSeconds: 60 },
      signInsPerEmailAndIp: { attempts: 4, windowSeconds: 120 },
      signInsPerIp: { attempts: 8, windowSeconds: 120 },
      appsPerAccount: 5,
      scryptConcurrency: 1,
      scryptQueue: 0,
    });
  });

  it('refuses bad values, naming the variable', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ DASHBOARD_SIGN_UPS_PER_IP: '0' }, /dashboard configuration: DASHBOARD_SIGN_UPS_PER_IP must be a whole number from 1 to 1000/],
      [{ DASHBOARD_SIGN_INS_PER_IP: 'many' }, /DASHBOARD_SIGN_INS_PER_IP must be a whole number from 1 to 1000/],
      [{ DASHBOARD_SIGN_IN_WINDOW_SECONDS: '86401' }, /DASHBOARD_SIGN_IN_WINDOW_SECONDS must be a whole number from 1 to 86400/],
      [{ DASHBOARD_APPS_PER_ACCOUNT: '-1' }, /DASHBOARD_APPS_PER_ACCOUNT must be a whole number from 1 to 10000/],
      [{ DASHBOARD_SCRYPT_CONCURRENCY: '65' }, /DASHBOARD_SCRYPT_CONCURRENCY must be a whole number from 1 to 64/],
      [{ DASHBOARD_SCRYPT_QUEUE: '1.5' }, /DASHBOARD_SCRYPT_QUEUE must be a whole number from 0 to 10000/],
    ];
    for (const [env, message] of cases) expect(() => readDashboardConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
