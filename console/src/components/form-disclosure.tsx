import type { ReactNode } from 'react';

/** A form folded behind a button-like summary until a person asks for it (New …, Duplicate). */
export function FormDisclosure({ summary, children }: { summary: string; children: ReactNode }) {
  return (
    <details>
      <summary role="button" className="outline">
        {summary}
      </summary>
      {children}
    </details>
  );
}
