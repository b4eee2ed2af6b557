import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SEGMENT_SIZE } from '#lib/pipeline/recipients.ts';
import { createWorkflow, messagesOf, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { seedSubscribers, seedTopicSubscriptions } from '../support/seed-subscribers.ts';
import { mailEnvironment, smtpIntegration } from '../support/smtp-integration.ts';

// A trigger's tenant as templates, step conditions and integration conditions see it: the
// stored tenant (identifier, name, data) after the trigger's own update, through the API, the
// queues and both consumers, to the inbox and the mail the SMTP server received; the activity
// feed shows it on each job.

const mailEnv = mailEnvironment();
beforeAll(async () => {
  // Chosen instead of the primary for enterprise tenants.
  await smtpIntegration(mailEnv.client, mailEnv.smtp, 'vip@acme.test', {
    identifier: `vip-${rand()}`,
    conditions: [
      {
        isNegated: false,
        type: 'GROUP',
        value: 'AND',
        children: [{ on: 'tenant', field: 'data.plan', operator: 'EQUAL', value: 'enterprise' }],
      },
    ],
  });
});

async function tenant(data: Record<string, unknown>): Promise<string> {
  const identifier = `tenant-${rand()}`;
  const res = await mailEnv.client.post('/v2/tenants', { identifier, name: 'Acme', data });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return identifier;
}

const STEPS = [
  {
    name: 'Inbox',
    stepId: 'inbox',
    type: 'in_app',
    controlValues: { subject: '{{tenant.identifier}}', body: '{{tenant.name}} is on {{tenant.data.plan}}' },
  },
  {
    name: 'Mail',
    stepId: 'mail',
    type: 'email',
    controlValues: { subject: 'Your {{tenant.data.plan}} plan at {{tenant.name}}', body: '<p>{{tenant.data.seats}} seats</p>' },
  },
  // Step conditions (JSON logic) on the tenant's data.
  {
    name: 'Pro only',
    stepId: 'pro-only',
    type: 'in_app',
    controlValues: { body: 'for pro', skip: { '==': [{ var: 'tenant.data.plan' }, 'pro'] } },
  },
  {
    name: 'Free only',
    stepId: 'free-only',
    type: 'in_app',
    controlValues: { body: 'for free', skip: { '==': [{ var: 'tenant.data.plan' }, 'free'] } },
  },
];

const mailTo = (subscriberId: string) => mailEnv.smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));

describe('tenant data in templates and conditions', () => {
  it('renders the stored tenant in in-app and email content, runs step conditions on it, and shows it in the activity feed', async () => {
    const identifier = await tenant({ plan: 'pro', seats: 5 });
    const wf = await createWorkflow(mailEnv.client, STEPS);
    const subscriberId = `sub-${rand()}`;
    // The trigger names the tenant only: templates see what is stored.
    const txid = await triggerWith(mailEnv.client, {
      name: wf,
      to: { subscriberId, email: `${subscriberId}@example.test` },
      tenant: identifier,
    });

    const item = await settledOne(mailEnv.client, txid);
    expect(item.jobs.map((j: any) => [j.step.name, j.status])).toEqual([
      ['Inbox', 'completed'],
      ['Mail', 'completed'],
      ['Pro only', 'completed'],
      ['Free only', 'canceled'],
    ]);
    expect(item.jobs[3].executionDetails.map((d: any) => d.detail)).toContain('Step was skipped based on steps conditions');
    for (const job of item.jobs) expect(job.tenant).toEqual({ identifier, name: 'Acme', data: { plan: 'pro', seats: 5 } });

    const inbox = await messagesOf(mailEnv.client, subscriberId);
    expect(inbox.map((m: any) => m.content).sort()).toEqual(['Acme is on pro', 'for pro']);
    expect(inbox.find((m: any) => m.content === 'Acme is on pro').subject).toBe(identifier);
    const mail = mailTo(subscriberId)!;
    expect(mail.mail.subject).toBe('Your pro plan at Acme');
    expect(String(mail.mail.html)).toContain('5 seats');
    expect(mail.mail.from?.value[0]?.address).toBe('news@acme.test');

    // GET /v1/notifications/{id} shows it too.
    const one = await mailEnv.client.get(`/v1/notifications/${item._id}`);
    expect(one.body.jobs[0].tenant).toEqual({ identifier, name: 'Acme', data: { plan: 'pro', seats: 5 } });
  });

  it("runs a v1 step whose filter is on the tenant's data, and skips one whose filter is not met", async () => {
    const identifier = await tenant({ plan: 'pro' });
    const groupId = (await mailEnv.client.get('/v1/notification-groups')).body.data[0]._id;
    const filter = (plan: string) => [
      { isNegated: false, type: 'GROUP', value: 'AND', children: [{ on: 'tenant', field: 'data.plan', operator: 'EQUAL', value: plan }] },
    ];
    const created = await mailEnv.client.post('/v1/notification-templates', {
      name: `Tenant filters ${rand()}`,
      notificationGroupId: groupId,
      active: true,
      steps: [
        { name: 'Pro', filters: filter('pro'), template: { type: 'in_app', content: 'pro step for {{tenant.name}}' } },
        { name: 'Free', filters: filter('free'), template: { type: 'in_app', content: 'free step' } },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const subscriberId = `sub-${rand()}`;
    const item = await settledOne(
      mailEnv.client,
      await triggerWith(mailEnv.client, { name: created.body.data.triggers[0].identifier, to: subscriberId, tenant: identifier }),
    );
    expect(item.jobs.map((j: any) => j.status)).toEqual(['completed', 'canceled']);
    expect((await messagesOf(mailEnv.client, subscriberId)).map((m: any) => m.content)).toEqual(['pro step for Acme']);
  });

  it(
    'a trigger that gives a new name and data updates the tenant, ' + 'and its templates and integration conditions see the new values',
    async () => {
      const identifier = await tenant({ plan: 'pro', seats: 5 });
      const wf = await createWorkflow(mailEnv.client, STEPS.slice(0, 2));
      const subscriberId = `sub-${rand()}`;
      const txid = await triggerWith(mailEnv.client, {
        name: wf,
        to: { subscriberId, email: `${subscriberId}@example.test` },
        tenant: { identifier, name: 'Acme Corp', data: { plan: 'enterprise', seats: 50 } },
      });

      const item = await settledOne(mailEnv.client, txid);
      expect(item.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed']);
      const [inbox] = await messagesOf(mailEnv.client, subscriberId);
      expect(inbox.content).toBe('Acme Corp is on enterprise');
      const mail = mailTo(subscriberId)!;
      expect(mail.mail.subject).toBe('Your enterprise plan at Acme Corp');
      // The integration whose tenant condition passes delivers instead of the primary.
      expect(mail.mail.from?.value[0]?.address).toBe('vip@acme.test');
      expect(item.jobs[1].tenant).toEqual({ identifier, name: 'Acme Corp', data: { plan: 'enterprise', seats: 50 } });

      const stored = await mailEnv.client.get(`/v2/tenants/${identifier}`);
      expect(stored.body).toMatchObject({ identifier, name: 'Acme Corp', data: { plan: 'enterprise', seats: 50 } });
    },
  );

  it('a tenant too large to copy into each notification is read by its jobs', async () => {
    const notes = 'x'.repeat(10_000);
    const identifier = await tenant({ plan: 'scale', notes });
    const wf = await createWorkflow(mailEnv.client, STEPS.slice(0, 1));
    const subscriberId = `sub-${rand()}`;
    const item = await settledOne(
      mailEnv.client,
      await triggerWith(mailEnv.client, { name: wf, to: { subscriberId }, tenant: identifier }),
    );
    expect(item.jobs[0].status).toBe('completed');
    const [message] = await messagesOf(mailEnv.client, subscriberId);
    expect(message.content).toBe('Acme is on scale');
    // The feed shows what the trigger said of it.
    expect(item.jobs[0].tenant).toEqual({ identifier });
  });

  it('every member of a topic audience of several segments sees the tenant', async () => {
    const identifier = await tenant({ plan: 'team' });
    const wf = await createWorkflow(mailEnv.client, STEPS.slice(0, 1));
    const topicKey = `topic-${rand()}`;
    const topic = await mailEnv.client.post('/v2/topics', { key: topicKey, name: 'Team' });
    expect(topic.status).toBe(201);
    // Past the walk's own first segment: the others are delivered from segment messages of their own.
    const prefix = rand();
    const members = Array.from({ length: 2 * SEGMENT_SIZE + 50 }, (_, i) => `${prefix}-${i}`);
    await seedTopicSubscriptions(mailEnv.scope, { _id: topic.body._id, key: topicKey }, await seedSubscribers(mailEnv.scope, members));

    const txid = await triggerWith(mailEnv.client, {
      name: wf,
      to: [{ type: 'Topic', topicKey }],
      tenant: { identifier, name: 'Team Acme' },
    });
    const seen = await vi.waitFor(
      async () => {
        const pages = await Promise.all(
          Array.from({ length: Math.ceil(members.length / 50) }, (_, page) =>
            mailEnv.client.get(`/v1/notifications?transactionId=${txid}&limit=50&page=${page}`),
          ),
        );
        const items = pages.flatMap((res) => res.body.data);
        expect(items).toHaveLength(members.length);
        for (const item of items) expect(item.jobs[0].status).toBe('completed');
        return items;
      },
      { timeout: 60_000, interval: 500 },
    );
    for (const item of seen) expect(item.jobs[0].tenant).toEqual({ identifier, name: 'Team Acme', data: { plan: 'team' } });
    for (const subscriberId of [members[0]!, members.at(-1)!]) {
      const [message] = await messagesOf(mailEnv.client, subscriberId);
      expect(message.content).toBe('Team Acme is on team');
    }
  }, 90_000);
});
