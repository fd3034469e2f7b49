/**
 * pino JSON logger. Secrets never reach it: credentials, cookies and signatures are redacted.
 */
import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-service-key"]',
        'req.headers["x-service-signature"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
