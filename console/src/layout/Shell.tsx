import { NavLink, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { signOut } from '../session/sign-in.ts';
import { useEnvironment, useSession } from '../session/use-session.ts';
import { EnvironmentSwitcher } from './EnvironmentSwitcher.tsx';
import { KeyPrompt } from './KeyPrompt.tsx';

export const SECTIONS = [
  ['activity', 'Activity'],
  ['workflows', 'Workflows'],
  ['subscribers', 'Subscribers'],
  ['integrations', 'Integrations'],
  ['layouts', 'Layouts'],
  ['translations', 'Translations'],
  ['webhooks', 'Webhooks'],
  ['stats', 'Stats'],
] as const;

/** The frame of every view of an environment: navigation, environment switcher, sign-out. */
export function Shell() {
  const { environmentId = '' } = useParams();
  const session = useSession();
  const { environment, signedIn } = useEnvironment(environmentId);
  const location = useLocation();
  if (!session) return <Navigate to={`/console/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;

  return (
    <>
      <header className="container-fluid shell-header">
        <nav aria-label="Console">
          <ul>
            <li>
              <strong>Notify</strong>
            </li>
            <li>
              <EnvironmentSwitcher environments={session.environments} current={environmentId} />
            </li>
          </ul>
          <ul className="sections">
            {SECTIONS.map(([path, label]) => (
              <li key={path}>
                <NavLink to={`/console/env/${environmentId}/${path}`}>{label}</NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="secondary outline" onClick={signOut}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main className="container-fluid">
        {signedIn ? <Outlet /> : <KeyPrompt environmentId={environmentId} {...(environment && { environment })} />}
      </main>
    </>
  );
}

/** `/console/` and `/`: the first environment signed in to, or sign-in. */
export function Home() {
  const session = useSession();
  const first = session && Object.keys(session.keys)[0];
  return <Navigate to={first ? `/console/env/${first}/activity` : '/console/sign-in'} replace />;
}
