// docs/RULES.md: every shipped rule has a sample event in test/fixtures/gateway/. The GitHub and
// Stripe samples, as those providers send them, set off their rules through the real rule engine.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadRuleSet } from '../../src/gateway/rules/loader.ts';
import { planDelivery } from '../../src/gateway/rules/plan.ts';

const sample = (name: string) => JSON.parse(readFileSync(`test/fixtures/gateway/${name}`, 'utf8')) as Record<string, unknown>;
const signed = { deliveryId: true, event: true, test: true };

describe('sample GitHub and Stripe events', () => {
  const set = loadRuleSet('rules');

  it('a GitHub issue labelled urgent mails the on-call address', async () => {
    const payload = sample('github.issues.labeled.json');
    const plans = await planDelivery(set, { payload, headers: {}, source: 'github', event: 'issues', test: false, signed: { ...signed, event: false }, deliveryId: 'd1', receivedAt: '2026-01-01T09:05:00.000Z', vars: { oncallEmail: 'oncall@acme.test' } });
    expect(plans.map((p) => [p.rule, p.result])).toContainEqual(['github-urgent-issue', 'matched']);
    const email = plans.find((p) => p.rule === 'github-urgent-issue')!.actions[0]!;
    expect(email.error).toBeNull();
    expect(email.spec).toMatchObject({ to: ['oncall@acme.test'] });
    expect(JSON.stringify(email.spec)).toContain('acme/shop');
  });

  it('a Stripe invoice.payment_failed event is forwarded to billing with its event id as the idempotency key', async () => {
    const payload = sample('stripe.invoice.payment_failed.json');
    const plans = await planDelivery(set, { payload, headers: {}, source: 'stripe', event: String(payload.type), test: false, signed, deliveryId: String(payload.id), receivedAt: '2026-01-01T09:05:00.000Z', vars: { billingUrl: 'https://billing.example.com/hooks/stripe' } });
    expect(plans.map((p) => [p.rule, p.result])).toContainEqual(['stripe-payment-failed', 'matched']);
    const http = plans.find((p) => p.rule === 'stripe-payment-failed')!.actions[0]!;
    expect(http.error).toBeNull();
    expect(http.spec).toMatchObject({ url: 'https://billing.example.com/hooks/stripe', headers: { 'Idempotency-Key': 'evt_1NG8Du2eZvKYlo2CUI79vXWy' } });
  });
});
