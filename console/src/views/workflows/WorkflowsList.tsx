import { Empty } from '../../components/states.tsx';

export function WorkflowsList() {
  return (
    <section>
      <h1>Workflows</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
