/** An object as indented JSON, folded until asked for ("raw detail on demand"). */
export function RawJson({ value, summary = 'Raw' }: { value: unknown; summary?: string }) {
  return (
    <details className="raw-json">
      <summary>{summary}</summary>
      <pre>
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    </details>
  );
}
