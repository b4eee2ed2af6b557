import { useSearchParams } from 'react-router';
import { onSubmitted } from './submitted-form.ts';

/** A list's search, kept in the URL as `?query=` (a new search starts at the first page). */
export function SearchForm({ label, placeholder = label }: { label: string; placeholder?: string }) {
  const [params, setParams] = useSearchParams();
  const search = params.get('query') ?? '';
  return (
    <form role="search" onSubmit={onSubmitted((text) => setParams(text('query') ? { query: text('query') } : {}))}>
      <fieldset role="group">
        <input type="search" name="query" aria-label={label} placeholder={placeholder} defaultValue={search} key={search} />
        <button type="submit">Search</button>
      </fieldset>
    </form>
  );
}
