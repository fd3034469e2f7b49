/**
 * The page behind invitation and reset links (`/account/password?token=…`): GET shows a form to choose a
 * password and changes nothing (mail previewers fetch links); only the form's POST sets it, once
 * (src/users/password-links.ts). The token travels in the form body on POST. Small HTML, no scripts, not
 * cached, not indexed, no referrer (so the token does not leak to the next page's server).
 */
import express, { type Request, type Response } from 'express';
import type { Runtime } from '../runtime.js';
import { DomainError } from '../errors.js';
import { restError } from '../http/error-mapping.js';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_PAGE_PATH,
  describePasswordLink,
  usePasswordLink,
} from '../users/password-links.js';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.8rem 0}input{display:block;width:100%;font-size:1rem;padding:.4rem}button{font-size:1.1rem;padding:.6rem 1.2rem}</style></head>` +
        `<body><h1>${esc(title)}</h1>${body}</body></html>`,
    );
}

function form(token: string, email: string, problem?: string): string {
  const input = (name: string, label: string) =>
    `<label>${label}<input type="password" name="${name}" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}"></label>`;
  return (
    (problem ? `<p role="alert">${esc(problem)}</p>` : '') +
    `<form method="post" action="${PASSWORD_PAGE_PATH}"><input type="hidden" name="token" value="${esc(token)}">` +
    `<input type="hidden" name="username" value="${esc(email)}" autocomplete="username">` +
    `<p>Account: <strong>${esc(email)}</strong></p>` +
    input('password', 'New password') +
    input('password_confirm', 'Repeat the password') +
    `<button type="submit">Set password</button></form>`
  );
}

/** GET and POST of the set-password page. */
export function passwordPageRoutes(rt: Runtime): express.Router {
  const router = express.Router();
  router.get(PASSWORD_PAGE_PATH, async (req: Request, res: Response) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const v = await describePasswordLink(rt, token);
    if (!v.ok || !v.email) return page(res, 410, 'Link not usable', `<p>${esc(v.problem ?? '')}</p>`);
    page(res, 200, v.purpose === 'invite' ? 'Choose your password' : 'Choose a new password', form(token, v.email));
  });
  router.post(
    PASSWORD_PAGE_PATH,
    express.urlencoded({ extended: false, limit: '8kb' }),
    async (req: Request, res: Response) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const token = typeof body.token === 'string' ? body.token : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (password !== body.password_confirm) {
        const v = await describePasswordLink(rt, token);
        if (!v.ok || !v.email) return page(res, 410, 'Link not usable', `<p>${esc(v.problem ?? '')}</p>`);
        return page(res, 422, 'Choose a password', form(token, v.email, 'The two passwords differ; type them again.'));
      }
      try {
        const done = await usePasswordLink(rt, token, password);
        page(
          res,
          200,
          'Password set',
          `<p>The password of <strong>${esc(done.email)}</strong> is set; ${done.sessionsEnded} earlier session(s) ended.</p>` +
            `<p><a href="/">Sign in</a></p>`,
        );
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const e = restError(err);
        const v = await describePasswordLink(rt, token);
        if (!v.ok || !v.email) return page(res, 410, 'Link not usable', `<p>${esc(v.problem ?? err.message)}</p>`);
        page(res, e.status, 'Choose a password', form(token, v.email, err.message));
      }
    },
  );
  return router;
}
