import type { z } from 'zod';
import type { webhookComponentSchemas } from '../../webhooks/api/operations.ts';
import type * as schemas from '../../dashboard/schemas.ts';

// What the dashboard's endpoints answer (docs/dashboard.md#endpoints), as the backend's schemas declare it.

export type Account = z.infer<typeof schemas.Account>;
export type Session = z.infer<typeof schemas.SessionState>;
export type Network = z.infer<typeof schemas.NetworkList>['networks'][number];
export type App = z.infer<typeof schemas.App>;
export type Usage = z.infer<typeof schemas.Usage>;
export type UsageRange = Usage['range'];
export type AccountToken = z.infer<typeof schemas.AccountToken>;
export type Webhook = z.infer<typeof webhookComponentSchemas.Webhook>;
export type Delivery = z.infer<typeof webhookComponentSchemas.WebhookDelivery>;

/** GET /api/webhooks/{id}/deliveries/{deliveryId}: the delivery, its payload and every attempt. */
export interface DeliveryDetail extends Delivery {
  payload: Record<string, unknown>;
  attemptList: Array<{
    attempt: number;
    outcome: 'sending' | 'delivered' | 'failed' | 'abandoned';
    httpStatus: number | null;
    error: string | null;
    durationMs: number | null;
    startedAt: string;
  }>;
}
