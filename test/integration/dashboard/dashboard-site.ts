import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { createResponseValidator, type ResponseValidator } from '../../support/openapi-validator.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// The production server (`node src/server/main.ts`, as `npm start` runs it) over a small built site
// and a SQLite file of its own, and a browser that talks to its dashboard: a cookie jar, the CSRF
// header a page script sends, its own client address (the server trusts CF-Connecting-IP here, so
// each test's sign-in attempts count against an address of its own), and every answer checked
// against the served /openapi.json.

export interface DashboardSite {
  origin: string;
  databasePath: string;
  validator: ResponseValidator;
  /** The server's stdout so far, one line each. */
  logLines(): string[];
  browser(ip?: string): Browser;
  stop(): Promise<void>;
}

export async function startDashboardSite(env: Record<string, string> = {}): Promise<DashboardSite> {
  const dir = await mkdtemp(join(tmpdir(), 'crucible-dashboard-'));
  let fixture: FixtureDist | undefined;
  let server: BuiltSite | undefined;
  try {
    fixture = await writeFixtureDist();
    const databasePath = join(dir, 'crucible.sqlite');
    server = await startBuiltSite({ distDir: fixture.distDir, env: { DATABASE_PATH: databasePath, TRUST_PROXY: 'cloudflare', ANVIL_BLOCK_TIME: '1', ...env } });
    const document = (await (await fetch(`${server.origin}/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    const validator = createResponseValidator(document);
    const { origin } = server;
    // What the site's pages send as Origin: the origin it was built for (the fixture's), not the address the test reaches it at.
    const siteOrigin = document.servers[0]!.url;
    let browsers = 0;
    return {
      origin,
      databasePath,
      validator,
      logLines: () => server!.logLines(),
      browser: (ip) => {
        const n = ++browsers;
        return new Browser(origin, siteOrigin, validator, ip ?? `10.${(n >> 8) & 255}.${n & 255}.1`);
      },
      async stop() {
        await server?.stop();
        if (fixture) await rm(fixture.root, { recursive: true, force: true });
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stop();
    if (fixture) await rm(fixture.root, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (checked against /openapi.json), or undefined for 204. */
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked against the OpenAPI document, then read freely.
  body: any;
  /** Set-Cookie values, one each. */
  setCookies: string[];
}

export interface CallOptions {
  body?: unknown;
  /** X-CSRF-Token: the CSRF cookie's value unless given (null: none). */
  csrf?: string | null;
  /** Origin: the site's unless given (null: none). */
  origin?: string | null;
  headers?: Record<string, string>;
}

/** One browser: the cookies it was given, sent back on each call. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** Where the server listens. */
  readonly origin: string;
  /** The Origin its pages send. */
  readonly siteOrigin: string;
  readonly ip: string;
  readonly #validator: ResponseValidator;

  constructor(origin: string, siteOrigin: string, validator: ResponseValidator, ip: string) {
    this.origin = origin;
    this.siteOrigin = siteOrigin;
    this.#validator = validator;
    this.ip = ip;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', 'cf-connecting-ip': this.ip, 'sec-fetch-site': 'same-origin', ...options.headers };
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (cookie) headers.cookie = cookie;
    const origin = options.origin === undefined ? this.siteOrigin : options.origin;
    if (origin !== null) headers.origin = origin;
    const csrf = options.csrf === undefined ? this.csrfCookie() : options.csrf;
    if (csrf !== null && csrf !== undefined) headers['x-csrf-token'] = csrf;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf('='));
      if (attributes.includes('Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    const text = await response.text();
    const body = text === '' ? undefined : JSON.parse(text);
    const checked = this.#validator.check(method, new URL(path, this.origin).pathname, response.status, response.headers.get('content-type'), body);
    expect(checked.errors, `${method} ${path} ${response.status} ${text}`).toEqual([]);
    // No stack trace or internal name reaches a client.
    expect(text).not.toMatch(/\n\s+at |Error:|node_modules|src\//);
    return { status: response.status, headers: response.headers, body, setCookies };
  }

  csrfCookie(): string | undefined {
    return this.cookies.get('crucible_csrf') ?? this.cookies.get('__Host-crucible_csrf');
  }

  sessionCookie(): string | undefined {
    return this.cookies.get('crucible_session') ?? this.cookies.get('__Host-crucible_session');
  }

  /** A fresh page load: GET /api/dashboard/session (which sets the CSRF cookie when absent). */
  session(): Promise<Answer> {
    return this.call('GET', '/api/dashboard/session');
  }

  /** Loads the session, then signs up; expects 201. */
  async signUp(email: string, password: string): Promise<Answer> {
    await this.session();
    const answer = await this.call('POST', '/api/dashboard/sign-up', { body: { email, password } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer;
  }

  /** Loads the session, then signs in; the answer as it comes. */
  async signIn(email: string, password: string): Promise<Answer> {
    await this.session();
    return this.call('POST', '/api/dashboard/sign-in', { body: { email, password } });
  }
}

let accounts = 0;
/** An email no other test uses. */
export function newEmail(): string {
  return `person${++accounts}.${process.pid}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';
