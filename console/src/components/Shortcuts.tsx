/**
 * Keyboard shortcuts of the console, as Grafana and GitHub have them: `/` focuses the page's search,
 * `g a` goes to alerts, `g t` to the timeline, `?` opens this list, Escape closes it. Keys typed into a
 * field are left alone.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: '/', does: 'Focus the search or first filter of the page' },
  { keys: 'g a', does: 'Go to alerts' },
  { keys: 'g t', does: 'Go to the timeline' },
  { keys: '?', does: 'Show these shortcuts' },
  { keys: 'Esc', does: 'Close this list' },
];

const GO_TO: Record<string, string> = { a: '/alerts', t: '/timeline' };

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** The page's search field: the one in a `role=search` region, else the first text input of main. */
function focusSearch(): void {
  const field = document.querySelector<HTMLElement>(
    'main [role="search"] input, main [role="search"] select, main input[type="search"], main input[type="text"]',
  );
  field?.focus();
}

/** Listens for the shortcuts and renders the `?` overlay. */
export function Shortcuts() {
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const pendingG = useRef(false);
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.key === 'Escape') {
        setOpen(false);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typingInto(e.target)) return;
      if (pendingG.current) {
        pendingG.current = false;
        const to = GO_TO[e.key];
        if (to) {
          e.preventDefault();
          setOpen(false);
          navigate(to);
          return;
        }
      }
      if (e.key === 'g') pendingG.current = true;
      else if (e.key === '?') {
        e.preventDefault();
        setOpen(true);
      } else if (e.key === '/') {
        e.preventDefault();
        setOpen(false);
        focusSearch();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);
  useEffect(() => {
    if (open) closeButton.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="overlay" onClick={() => setOpen(false)}>
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        className="card dialog"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table aria-label="Keyboard shortcuts">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  {s.keys.split(' ').map((k) => (
                    <kbd key={k}>{k}</kbd>
                  ))}
                </th>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button ref={closeButton} type="button" onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
