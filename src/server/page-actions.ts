/**
 * The pages behind a notification's action links (`/actions/<token>`): GET shows what the link would do,
 * as whom, with one button, and changes nothing (mail and chat link previewers fetch URLs); the button's
 * POST (a form token bound to the link) acts (src/notifications/actions.ts). Small HTML, no scripts, not
 * cached, not indexed, no referrer.
 */
import crypto from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { Runtime } from '../runtime.js';
import { DomainError } from '../errors.js';
import { restError } from '../http/error-mapping.js';
import { actOnPageLink, describePageLink, type LinkView } from '../notifications/actions.js';
import { ACTION_PATH, formToken } from '../notifications/links.js';

const VERBS = { acknowledge: 'Acknowledge', snooze: 'Snooze for 1 hour', resolve: 'Resolve' } as const;
const DONE = { acknowledge: 'Acknowledged', snooze: 'Snoozed for 1 hour', resolve: 'Resolved' } as const;

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
        `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.2rem}</style></head>` +
        `<body><h1>${esc(title)}</h1>${body}</body></html>`,
    );
}

function alertLine(v: LinkView): string {
  if (!v.alert) return '';
  return `<p><strong>[${esc(v.alert.severity.toUpperCase())}]</strong> ${esc(v.alert.summary)}</p><p><a href="/alerts/${esc(v.alert.id)}">Open the alert in the console</a></p>`;
}

/** GET and POST of `/actions/:token`. */
export function pageActionRoutes(rt: Runtime): express.Router {
  const router = express.Router();
  router.get(`${ACTION_PATH}/:token`, async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const v = await describePageLink(rt, token);
    if (!v.ok || !v.action || !v.user || !v.group)
      return page(res, 410, 'Link not usable', `<p>${esc(v.problem ?? '')}</p>`);
    const who = esc(v.user.name ?? v.user.email);
    page(
      res,
      200,
      `${VERBS[v.action]} this alert?`,
      `${alertLine(v)}<p>The alert group is <strong>${esc(v.group.status)}</strong>. This acts as ${who}.</p>` +
        `<form method="post"><input type="hidden" name="form_token" value="${esc(formToken(rt, token))}">` +
        `<button type="submit">${esc(VERBS[v.action])}</button></form>`,
    );
  });
  router.post(
    `${ACTION_PATH}/:token`,
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req: Request, res: Response) => {
      const token = String(req.params.token);
      const given = (req.body as Record<string, unknown> | undefined)?.form_token;
      try {
        const v = await actOnPageLink(rt, token, given, crypto.randomUUID());
        if (!v.ok || !v.action || !v.group) return page(res, 410, 'Link not usable', `<p>${esc(v.problem ?? '')}</p>`);
        page(
          res,
          200,
          DONE[v.action],
          `${alertLine(v)}<p>The alert group is now <strong>${esc(v.group.status)}</strong>.</p>`,
        );
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const e = restError(err);
        page(res, e.status, 'Nothing was changed', `<p>${esc(err.message)}</p>`);
      }
    },
  );
  return router;
}
