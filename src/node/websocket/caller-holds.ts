import { createHash } from 'node:crypto';
import { ipBucketOf } from '../../http/ip-bucket.ts';
import type { Caller } from '../../admission/callers.ts';
import type { WebSocketHolds } from './holds.ts';

// Whose count a connection and its subscriptions are (README "Server limits"): its app's, or for
// the demo key its client IP's (IPv6 per prefix), as the CU buckets are kept. A process counts a
// topic once per caller however many subscriptions share it, as its upstream feed holds it once.

export interface CountedCaller {
  /** `app:<id>` or `demo:<ip bucket>`. */
  name: string;
  per: 'app' | 'client IP';
}

export function countedCaller(caller: Caller, clientIp: string | null, ipv6PrefixLength: number): CountedCaller {
  return caller.kind === 'app' ? { name: `app:${caller.app.id}`, per: 'app' } : { name: `demo:${ipBucketOf(clientIp, ipv6PrefixLength)}`, per: 'client IP' };
}

export interface TopicHolds {
  /** One more subscription of `caller` to `topic`: true when allowed (the caller holds the topic already, or one more fits under `max`). */
  acquire(caller: string, topic: string, max: number): Promise<boolean>;
  /** One subscription fewer; the topic is given back with its last. */
  release(caller: string, topic: string): void;
}

/** `processId` tells this process's topics from another's in a shared (Redis) count: each holds its own upstream subscription. */
export function createTopicHolds(holds: WebSocketHolds, processId: string): TopicHolds {
  /** `held` is set once `holding` settles; a release is sent at once, so a hold that follows it is counted after it. */
  const counted = new Map<string, { subscriptions: number; holding: Promise<boolean>; held: boolean }>();
  const placeOf = (caller: string, topic: string) => {
    const set = `topics:${caller}`;
    // Filters can be long: a topic is named by a digest of its normal form.
    const member = `${processId}:${createHash('sha256').update(topic).digest('base64url')}`;
    return { set, member, id: `${set} ${member}` };
  };

  const release = (caller: string, topic: string) => {
    const { set, member, id } = placeOf(caller, topic);
    const entry = counted.get(id);
    if (!entry || --entry.subscriptions > 0) return;
    counted.delete(id);
    if (entry.held) void holds.release(set, member);
  };

  return {
    async acquire(caller, topic, max) {
      const { set, member, id } = placeOf(caller, topic);
      let entry = counted.get(id);
      if (!entry) {
        const created = { subscriptions: 0, held: false, holding: holds.hold(set, member, max) };
        created.holding = created.holding.then((held) => (created.held = held));
        counted.set(id, (entry = created));
      }
      entry.subscriptions++;
      let held = false;
      try {
        held = await entry.holding;
        return held;
      } finally {
        if (!held) release(caller, topic);
      }
    },
    release,
  };
}
