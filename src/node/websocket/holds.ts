// What the WebSocket side counts per caller (README "Server limits"): open connections and
// distinct upstream topics. Each is a member of a set named after the caller (its app, or the
// demo key's client IP bucket), and a set holds at most a given number of members. In memory the
// sets are this process's; in Redis (redis-holds.ts) they are shared by every process.

export interface WebSocketHolds {
  /** Adds `member` to `set` unless the set already holds `max` others; true when it is held (held already counts as held). */
  hold(set: string, member: string, max: number): Promise<boolean>;
  release(set: string, member: string): Promise<void>;
  /** Stops whatever keeps the holds alive; releases nothing. */
  close(): void;
}

export function createMemoryWebSocketHolds(): WebSocketHolds {
  const sets = new Map<string, Set<string>>();
  return {
    async hold(set, member, max) {
      let members = sets.get(set);
      if (members?.has(member)) return true;
      if ((members?.size ?? 0) >= max) return false;
      if (!members) sets.set(set, (members = new Set()));
      members.add(member);
      return true;
    },
    async release(set, member) {
      const members = sets.get(set);
      members?.delete(member);
      if (members?.size === 0) sets.delete(set);
    },
    close: () => undefined,
  };
}
