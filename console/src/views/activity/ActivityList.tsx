import { Empty } from '../../components/states.tsx';

export function ActivityList() {
  return (
    <section>
      <h1>Activity</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
