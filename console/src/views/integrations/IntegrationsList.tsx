import { Empty } from '../../components/states.tsx';

export function IntegrationsList() {
  return (
    <section>
      <h1>Integrations</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
