import { App } from 'aws-cdk-lib';
import { NotifyStack } from './stack.ts';

// One stack per stage: `cdk deploy -c stage=prod` deploys Notify-prod next to Notify-dev.
const app = new App();
const stage: unknown = app.node.tryGetContext('stage') ?? 'dev';
if (typeof stage !== 'string' || !/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
  // The stage goes into queue and API names, so keep it short and DNS-safe.
  throw new Error(`Invalid stage ${JSON.stringify(stage)}: use lowercase letters, digits and dashes`);
}

new NotifyStack(app, `Notify-${stage}`, {
  stage,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
