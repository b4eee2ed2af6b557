import { Link } from 'react-router';

export function NotFound() {
  return (
    <main className="container">
      <h1>Page not found</h1>
      <p>
        <Link to="/console/">Go to the console</Link>
      </p>
    </main>
  );
}
