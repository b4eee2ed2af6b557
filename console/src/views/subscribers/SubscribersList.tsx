import { Empty } from '../../components/states.tsx';

export function SubscribersList() {
  return (
    <section>
      <h1>Subscribers</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
