import type { BlockList } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { guardedLookup } from './guarded-lookup.ts';

// The connection pools outbound requests go through (undici Agents: kept-alive connections per
// origin, HTTP/2 where the server offers it). One per block list: every connection of a guarded
// pool was made through its lookup, so a connection kept alive never reaches a blocked address
// either, and the exempt origin's connections live apart, in the open pool.

const open = new Agent();
const guarded = new WeakMap<BlockList, Agent>();

/** The pool whose connections never reach an address `blocked` holds; null: any address. */
export function dispatcherFor(blocked: BlockList | null): Dispatcher {
  if (!blocked) return open;
  let agent = guarded.get(blocked);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(blocked) } });
    guarded.set(blocked, agent);
  }
  return agent;
}
