import type { Caller } from '../auth/caller.ts';
import { createWorkflow } from './create.ts';
import { getWorkflow } from './repository.ts';
import type { CreateWorkflowInput } from './schemas.ts';

// The workflow `npm start` seeds in the demo's Development environment: an in-app step, a
// digest, then an email summing up what was digested. Created through the create use case, so it
// is exactly what an API client would get.

export const DEMO_WORKFLOW: CreateWorkflowInput = {
  name: 'Demo: comments digest',
  workflowId: 'demo-comments',
  description: 'In-app notice per comment, then one email with the comments of the last 5 minutes',
  tags: ['demo'],
  active: true,
  validatePayload: false,
  payloadSchema: {
    type: 'object',
    properties: { author: { type: 'string', default: 'Ada' }, comment: { type: 'string', default: 'Nice work!' } },
  },
  steps: [
    {
      name: 'Comment in inbox',
      stepId: 'inbox',
      type: 'in_app',
      controlValues: { subject: 'New comment from {{payload.author}}', body: '{{payload.comment}}' },
    },
    { name: 'Collect comments', stepId: 'collect', type: 'digest', controlValues: { amount: 5, unit: 'minutes' } },
    {
      name: 'Comments email',
      stepId: 'summary',
      type: 'email',
      controlValues: {
        subject: '{{steps.collect.eventCount}} new comments',
        body:
          '<p>Hi {{subscriber.firstName | default: "there"}},</p>' +
          '{% for e in steps.collect.events %}<p>{{ e.payload.author }}: {{ e.payload.comment }}</p>{% endfor %}',
        editorType: 'html',
      },
    },
  ],
};

/** The demo workflow of the environment, created if it is not there yet. */
export async function ensureDemoWorkflow(caller: Caller): Promise<{ id: string; workflowId: string }> {
  const existing = await getWorkflow(caller, DEMO_WORKFLOW.workflowId!);
  const workflow = existing ?? (await createWorkflow(caller, DEMO_WORKFLOW));
  return { id: workflow._id, workflowId: workflow.workflowId };
}
