import { Empty } from '../../components/states.tsx';

export function TranslationsList() {
  return (
    <section>
      <h1>Translations</h1>
      <Empty>Not built yet.</Empty>
    </section>
  );
}
