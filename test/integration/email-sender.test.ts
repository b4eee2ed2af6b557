import { describe, expect, it } from 'vitest';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { mailEnvironment } from '../support/smtp-integration.ts';

// An email step's own sender (`from: {email, name}`, the reference's email control), rendered
// with the trigger's variables, goes out before the integration's `from` and `senderName`,
// through the API, the queues and the pipeline to the mail the SMTP server received.

const mailEnv = mailEnvironment();

async function senderOf(
  from: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
): Promise<{ address?: string; name?: string }> {
  const wf = await createWorkflow(mailEnv.client, [
    { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>', ...(from && { from }) } },
  ]);
  const subscriberId = `sub-${rand()}`;
  const txid = await triggerWith(mailEnv.client, {
    name: wf,
    to: { subscriberId, email: `${subscriberId}@example.test` },
    payload: { team: 'billing' },
    ...extra,
  });
  expect((await settledOne(mailEnv.client, txid)).jobs[0].status).toBe('completed');
  const received = mailEnv.smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));
  return received!.mail.from!.value[0]!;
}

describe("an email step's sender", () => {
  it('is the step from, rendered with the trigger variables, before the integration sender', async () => {
    expect(await senderOf({ email: '{{payload.team}}@acme.test', name: '{{payload.team | capitalize}} desk' })).toEqual({
      address: 'billing@acme.test',
      name: 'Billing desk',
    });
  });

  it('takes what the step leaves out from the integration', async () => {
    expect(await senderOf({ name: 'Support' })).toEqual({ address: 'news@acme.test', name: 'Support' });
    expect(await senderOf({ email: 'help@acme.test' })).toEqual({ address: 'help@acme.test', name: 'Acme News' });
    expect(await senderOf(undefined)).toEqual({ address: 'news@acme.test', name: 'Acme News' });
  });

  it("gives way to the trigger's provider overrides", async () => {
    const overrides = { email: { from: 'override@acme.test', senderName: 'Override' } };
    expect(await senderOf({ email: 'step@acme.test', name: 'Step' }, { overrides })).toEqual({
      address: 'override@acme.test',
      name: 'Override',
    });
  });

  it('is a control of the step: kept, described in its schema, and checked', async () => {
    const wf = await createWorkflow(mailEnv.client, [
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: { subject: 'Hello', body: '<p>Hi</p>', from: { email: 'a@acme.test', name: 'A' } },
      },
    ]);
    const [mail] = (await mailEnv.client.get(`/v2/workflows/${wf}`)).body.steps;
    expect(mail.controls.values.from).toEqual({ email: 'a@acme.test', name: 'A' });
    expect(mail.controls.dataSchema.properties.from.properties).toEqual({ email: { type: 'string' }, name: { type: 'string' } });
    const bad = await mailEnv.client.post('/v2/workflows', {
      name: `wf-${rand()}`,
      workflowId: `wf-${rand()}`,
      steps: [{ name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hello', body: '<p>Hi</p>', from: { email: 42 } } }],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['steps.0.controlValues.from.email']);
  });
});
