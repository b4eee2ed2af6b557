import { useLocation, useNavigate } from 'react-router';
import type { EnvironmentInfo } from '../session/session.ts';

/** Moves the current section to another environment of the organization (its first page: ids differ). */
export function EnvironmentSwitcher({ environments, current }: { environments: EnvironmentInfo[]; current: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const section = pathname.split('/')[4] ?? 'activity';
  return (
    <select aria-label="Environment" value={current} onChange={(event) => navigate(`/console/env/${event.target.value}/${section}`)}>
      {environments.map((environment) => (
        <option key={environment.id} value={environment.id}>
          {environment.name}
        </option>
      ))}
    </select>
  );
}
