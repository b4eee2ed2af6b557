import { Link } from 'react-router';

/** Where a record's page sits: its area's list (a link), then the record. */
export function Breadcrumb({ listTo, listLabel, current }: { listTo: string; listLabel: string; current: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ul>
        <li>
          <Link to={listTo}>{listLabel}</Link>
        </li>
        <li>{current}</li>
      </ul>
    </nav>
  );
}
