import { Empty } from '../../components/states.tsx';

export function LayoutsList() {
  return (
    <section>
      <h1>Layouts</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
