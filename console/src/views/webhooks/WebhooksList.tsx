import { Empty } from '../../components/states.tsx';

export function WebhooksList() {
  return (
    <section>
      <h1>Webhooks</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
