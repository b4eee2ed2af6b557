import './tab-nav.css';
import { Link } from 'react-router';

// A row of links that pick a part of one view (a locale, a tab), each a URL of its own so the
// part can be shared; the current one is marked for screen readers and by sight.

export interface TabLink {
  key: string;
  label: string;
  to: string;
  current: boolean;
}

export function TabNav({ label, tabs }: { label: string; tabs: TabLink[] }) {
  return (
    <nav aria-label={label} className="tab-nav">
      <ul>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link to={tab.to} aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
