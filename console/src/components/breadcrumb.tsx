import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * Where a record's page sits: its area's list (a link), then the record when named. The label is
 * Pico's own (`nav[aria-label=breadcrumb]`, matched case-sensitively), which draws the separators.
 */
export function Breadcrumb({ listTo, listLabel, current }: { listTo: string; listLabel: string; current?: ReactNode }) {
  return (
    <nav aria-label="breadcrumb">
      <ul>
        <li>
          <Link to={listTo}>{listLabel}</Link>
        </li>
        {current ? <li>{current}</li> : null}
      </ul>
    </nav>
  );
}
