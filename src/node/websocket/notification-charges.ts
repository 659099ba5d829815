import type { NodeGateway, NodeSession } from '../gateway.ts';
import { rpcRegistry } from '../rpc/registry.ts';

// Notifications charged in batches (docs/json-rpc.md#subscriptions: each costs CUs). An event reaches every
// subscriber of its topic in one synchronous pass; the charges that pass asks for are grouped by
// who pays (gateway.payerOf: the same buckets under the same rules) and each group is charged with
// one call once the pass is over, rather than with one promise chain per subscriber. A group
// charged together gives what its charges one after another would: the first ones that fit.

/** What usage records name a notification by (the method of the message that carries it). */
export const NOTIFICATION_METHOD = 'eth_subscription';

const notificationComputeUnits = (() => {
  const units = rpcRegistry.find('eth_subscribe')?.notificationComputeUnits;
  if (units === undefined) throw new Error('the method registry gives eth_subscribe no notificationComputeUnits');
  return units;
})();

/** Decides one notification's charge: true when it was charged, false when it did not fit (or the limiter failed). */
type ChargeDecided = (charged: boolean) => void;

export interface NotificationCharges {
  /**
   * Asks to charge one notification of `session`; `decided` is called once, after the current
   * pass. Charges of one payer are decided in the order they were asked.
   */
  charge(session: NodeSession, decided: ChargeDecided): void;
}

export function createNotificationCharges(gateway: NodeGateway): NotificationCharges {
  /** The charges asked for in this pass, by payer. */
  let pass = new Map<string, { session: NodeSession; decided: ChargeDecided[] }>();

  const chargeGroup = (session: NodeSession, decided: ChargeDecided[]) => {
    gateway.chargeNotifications(session, NOTIFICATION_METHOD, notificationComputeUnits, decided.length).then(
      (charged) => {
        for (let i = 0; i < decided.length; i++) decided[i]!(i < charged);
      },
      () => {
        for (const decide of decided) decide(false);
      },
    );
  };

  const endPass = () => {
    const groups = pass;
    pass = new Map();
    for (const { session, decided } of groups.values()) chargeGroup(session, decided);
  };

  // Each session's payer, named again only when its caller changes (a connection's key checked again).
  const payers = new WeakMap<NodeSession, { caller: NodeSession['caller']; payer: string }>();
  const payerOf = (session: NodeSession): string => {
    let known = payers.get(session);
    if (known?.caller !== session.caller) payers.set(session, (known = { caller: session.caller, payer: gateway.payerOf(session) }));
    return known.payer;
  };

  return {
    charge(session, decided) {
      if (pass.size === 0) queueMicrotask(endPass);
      const payer = payerOf(session);
      const group = pass.get(payer);
      if (group) group.decided.push(decided);
      else pass.set(payer, { session, decided: [decided] });
    },
  };
}
