/**
 * The wire format of each channel, as its service documents it:
 * - ntfy: `POST <server>/<topic>` with the message as the body and `Title`, `Priority`, `Tags`, `Click`
 *   and `Actions` headers (docs.ntfy.sh/publish: action buttons, `http` actions with `method=POST`);
 * - Slack incoming webhooks: `{text, blocks}` with a section and an actions block of link buttons;
 * - Mattermost incoming webhooks: `{text}` in Markdown;
 * - Microsoft Teams Workflows ("when a Teams webhook request is received"): `{type: "message",
 *   attachments: [{contentType: "application/vnd.microsoft.card.adaptive", content: <Adaptive Card>}]}`;
 * - Discord webhooks: `{content, embeds: [{title, description, url, color, fields}]}` (webhooks cannot
 *   send buttons: the actions are links in the embed);
 * - the signed webhook: a JSON document signed like outbound webhooks (src/webhooks/signatures.ts);
 * - email: text and HTML parts, threaded per group by References/In-Reply-To.
 */
import type { MailMessage } from '../mail/mailer.js';
import type { ChatKind } from './contact-methods.js';
import { plainText, type PageContent } from './content.js';

export interface HttpRequestSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const SEVERITY_COLOR: Record<string, number> = { critical: 0xd32f2f, warning: 0xf9a825, info: 0x1976d2 };

/** ntfy publish: the message body, and up to three `http` action buttons that POST the form token. */
export function ntfyRequest(server: string, topic: string, token: string | null, c: PageContent): HttpRequestSpec {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: asciiHeader(c.title),
    priority: c.test ? '3' : c.urgency === 'high' ? '5' : '3',
    tags: c.test ? 'white_check_mark' : c.severity === 'critical' ? 'rotating_light' : 'warning',
    click: c.consoleUrl,
  };
  if (c.actions.length) {
    headers.actions = c.actions
      .map(
        (a) =>
          `http, ${a.label}, ${a.url}, method=POST, headers.content-type=application/x-www-form-urlencoded, body=form_token=${a.formToken}, clear=true`,
      )
      .join('; ');
  }
  if (token) headers.authorization = `Bearer ${token}`;
  const body = [c.summary, ...Object.entries(c.labels).map(([k, v]) => `${k}=${v}`)];
  if (c.runbookUrl) body.push(`Runbook: ${c.runbookUrl}`);
  return { url: `${server.replace(/\/+$/, '')}/${encodeURIComponent(topic)}`, headers, body: body.join('\n') };
}

/** HTTP header values are Latin-1: anything else is replaced (ntfy also accepts RFC 2047, not needed here). */
function asciiHeader(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').slice(0, 250);
}

function markdownLines(c: PageContent, link: (label: string, url: string) => string): string[] {
  const lines = [`*${c.title}*`, c.summary];
  const labels = Object.entries(c.labels);
  if (labels.length) lines.push(labels.map(([k, v]) => `\`${k}=${v}\``).join(' '));
  const notes = Object.entries(c.annotations).filter(([k]) => k !== 'runbook_url');
  for (const [k, v] of notes) lines.push(`${k}: ${v}`);
  const links = [link('Open in the console', c.consoleUrl)];
  if (c.runbookUrl) links.push(link('Runbook', c.runbookUrl));
  for (const a of c.actions) links.push(link(a.label, a.url));
  lines.push(links.join(' · '));
  return lines;
}

/** The JSON body of a chat incoming webhook, in that service's documented format. */
export function chatBody(kind: ChatKind, c: PageContent): Record<string, unknown> {
  if (kind === 'slack') {
    const text = markdownLines(c, (l, u) => `<${u}|${l}>`).join('\n');
    return {
      text: c.title,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text } },
        ...(c.actions.length
          ? [
              {
                type: 'actions',
                elements: c.actions.map((a) => ({
                  type: 'button',
                  text: { type: 'plain_text', text: a.label },
                  url: a.url,
                  action_id: a.action,
                })),
              },
            ]
          : []),
      ],
    };
  }
  if (kind === 'mattermost')
    return {
      text: markdownLines(c, (l, u) => `[${l}](${u})`)
        .join('\n')
        .replace(/^\*(.*)\*$/m, '**$1**'),
    };
  if (kind === 'teams') {
    const facts = Object.entries(c.labels).map(([k, v]) => ({ title: k, value: v }));
    return {
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              { type: 'TextBlock', text: c.title, weight: 'Bolder', size: 'Medium', wrap: true },
              { type: 'TextBlock', text: c.summary, wrap: true },
              ...(facts.length ? [{ type: 'FactSet', facts }] : []),
            ],
            actions: [
              { type: 'Action.OpenUrl', title: 'Open in the console', url: c.consoleUrl },
              ...(c.runbookUrl ? [{ type: 'Action.OpenUrl', title: 'Runbook', url: c.runbookUrl }] : []),
              ...c.actions.map((a) => ({ type: 'Action.OpenUrl', title: a.label, url: a.url })),
            ],
          },
        },
      ],
    };
  }
  // Discord
  const links = c.actions.map((a) => `[${a.label}](${a.url})`);
  if (c.runbookUrl) links.push(`[Runbook](${c.runbookUrl})`);
  return {
    content: c.title.slice(0, 2000),
    embeds: [
      {
        title: c.title.slice(0, 256),
        description: [c.summary, links.join(' · ')].filter(Boolean).join('\n\n').slice(0, 4096),
        url: c.consoleUrl,
        color: SEVERITY_COLOR[c.severity] ?? SEVERITY_COLOR.info,
        fields: Object.entries(c.labels)
          .slice(0, 25)
          .map(([name, value]) => ({ name: name.slice(0, 256), value: value.slice(0, 1024) || '-', inline: true })),
      },
    ],
  };
}

/** The signed webhook's document. */
export function webhookBody(notificationId: string, c: PageContent, sentAt: Date): Record<string, unknown> {
  return {
    type: c.test ? 'notification.test' : 'notification.page',
    id: notificationId,
    sent_at: sentAt.toISOString(),
    group_id: c.groupId,
    alert_id: c.alertId,
    title: c.title,
    summary: c.summary,
    severity: c.severity,
    urgency: c.urgency,
    labels: c.labels,
    annotations: c.annotations,
    console_url: c.consoleUrl,
    actions: Object.fromEntries(c.actions.map((a) => [a.action, a.url])),
  };
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The email of a page: every mail of a group threads under `<group-<id>@domain>`. */
export function pageEmail(to: string, from: string, notificationId: string, c: PageContent): MailMessage {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  const root = c.groupId ? `<group-${c.groupId}@${domain}>` : undefined;
  const labels = Object.entries(c.labels)
    .map(([k, v]) => `<code>${esc(k)}=${esc(v)}</code>`)
    .join(' ');
  const notes = Object.entries(c.annotations)
    .filter(([k]) => k !== 'runbook_url')
    .map(([k, v]) => `<li>${esc(k)}: ${esc(v)}</li>`)
    .join('');
  const html = [
    `<h2>${esc(c.title)}</h2>`,
    `<p>${esc(c.summary)}</p>`,
    `<p>Severity: <strong>${esc(c.severity)}</strong></p>`,
    labels ? `<p>${labels}</p>` : '',
    notes ? `<ul>${notes}</ul>` : '',
    c.runbookUrl ? `<p><a href="${esc(c.runbookUrl)}">Runbook</a></p>` : '',
    `<p><a href="${esc(c.consoleUrl)}">Open in the console</a></p>`,
    c.actions.length
      ? `<p>${c.actions.map((a) => `<a href="${esc(a.url)}">${esc(a.label)}</a>`).join(' | ')}</p><p><small>Each link opens a confirmation page; it acts for you and expires in 24 hours.</small></p>`
      : '',
  ].join('\n');
  return {
    to,
    subject: c.title,
    text: plainText(c),
    html,
    messageId: `<notification-${notificationId}@${domain}>`,
    ...(root ? { inReplyTo: root, references: [root] } : {}),
  };
}
