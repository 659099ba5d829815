import { z } from 'zod';
import type { Env } from './env.ts';
import { count } from './numbers.ts';
import { readConfigVariable } from './variable.ts';

// The MCP server (docs/mcp.md): how large one tool answer may be, how large a message, and where
// `npm run mcp` (the stdio bridge) finds a running Crucible and with which key. Validated; a bad
// value stops start-up naming the variable. Every variable is listed in .env.example.

export interface McpConfig {
  /** MCP_ANSWER_BUDGET_CHARS (default 20000): the most characters one tool answer holds; a longer one is sliced, with a cursor to the rest. */
  answerBudgetChars: number;
  /** MCP_MAX_BODY_BYTES (default 262144): the largest MCP message `POST /mcp` reads; a longer one is refused unread. */
  maxBodyBytes: number;
}

export interface McpBridgeConfig {
  /** MCP_SERVER_URL: the Crucible `npm run mcp` speaks to; unset, the one `npm start` serves here (started if it does not answer). */
  serverUrl: string | null;
  /** MCP_KEY (default demo): the app key the bridge sends as `Authorization: Bearer <key>`. */
  key: string;
}

/** Answers past this many characters are sliced: about 5,000 tokens, a fair share of a model's context for one call. */
export const DEFAULT_ANSWER_BUDGET_CHARS = 20_000;

const read = <T>(env: Env, name: string, schema: z.ZodType<T, string>, fallback: T): T => readConfigVariable(env, 'MCP', name, schema, fallback);

export function readMcpConfig(env: Env): McpConfig {
  return {
    answerBudgetChars: read(
      env,
      'MCP_ANSWER_BUDGET_CHARS',
      count(10_000_000).refine((chars) => chars >= 1_000, 'must be at least 1000'),
      DEFAULT_ANSWER_BUDGET_CHARS,
    ),
    maxBodyBytes: read(env, 'MCP_MAX_BODY_BYTES', count(16 * 1024 * 1024), 256 * 1024),
  };
}

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:$/.test(URL.parse(value)?.protocol ?? ''), 'must be an http(s) URL such as http://127.0.0.1:4321')
  .transform((value) => new URL(value).origin);

export function readMcpBridgeConfig(env: Env): McpBridgeConfig {
  return {
    serverUrl: read(env, 'MCP_SERVER_URL', httpUrl, null as string | null),
    key: read(env, 'MCP_KEY', z.string().trim().min(1, 'must not be empty'), 'demo'),
  };
}
