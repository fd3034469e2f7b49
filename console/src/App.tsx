/** The shell: sign-in gate, navigation built from the page registry, and the routes. */
import { Suspense, useState } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { useSession } from './lib/session';
import { PAGES, NAV_SECTIONS } from './pages';
import { SignIn } from './pages/SignIn';
import { Page } from './components/Page';
import { Shortcuts } from './components/Shortcuts';
import { StarterRulesOffer } from './components/StarterRules';
import { adminOnly } from './lib/permissions';

export function App() {
  const { me, loading, signOut } = useSession();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  if (loading) return <p className="boot">Loading…</p>;
  if (!me) return <SignIn />;
  const visible = PAGES.filter((p) => p.nav !== false && (!p.adminOnly || me.role === 'ADMIN'));
  return (
    <div className="shell">
      <a
        className="skip-link"
        href="#content"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('content')?.focus();
        }}
      >
        Skip to content
      </a>
      <Shortcuts />
      <header className="topbar">
        <button
          type="button"
          className="menu-toggle plain"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <span className="brand">Operations console</span>
        <span className="whoami">
          {me.email} · {me.role.toLowerCase()} · {me.tenant.name}
        </span>
        <button type="button" className="plain" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav id="nav" aria-label="Main" className={menuOpen ? 'open' : undefined} onClick={() => setMenuOpen(false)}>
        {NAV_SECTIONS.map((section) => {
          const items = visible.filter((p) => p.section === section);
          if (!items.length) return null;
          return (
            <div key={section} className="nav-section">
              <h2>{section}</h2>
              <ul>
                {items.map((p) => (
                  <li key={p.path}>
                    <Link
                      href={p.path}
                      aria-current={location === p.path || location.startsWith(p.path + '/') ? 'page' : undefined}
                    >
                      {p.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <main id="content" tabIndex={-1}>
        {adminOnly(me) === null && <StarterRulesOffer />}
        <Suspense fallback={<p className="boot">Loading…</p>}>
          <Switch>
            {PAGES.map((p) => (
              <Route key={p.path} path={p.path} component={p.component} />
            ))}
            <Route>
              <Page title="Page not found">
                <p>
                  Nothing at <code>{location}</code>. <Link href="/timeline">Go to the timeline</Link>.
                </p>
              </Page>
            </Route>
          </Switch>
        </Suspense>
      </main>
    </div>
  );
}
