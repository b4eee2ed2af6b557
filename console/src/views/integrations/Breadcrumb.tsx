import { Link } from 'react-router';

/** The way back to the environment's integrations list, with where the view is below it. */
export function Breadcrumb({ environmentId, here }: { environmentId: string; here?: string }) {
  return (
    <nav aria-label="Breadcrumb">
      <ul>
        <li>
          <Link to={`/console/env/${environmentId}/integrations`}>Integrations</Link>
        </li>
        {here ? <li>{here}</li> : null}
      </ul>
    </nav>
  );
}
