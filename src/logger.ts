/**
 * pino JSON logger. Secrets never reach it: credentials, cookies and signatures are redacted.
 */
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The process logger. Guarantees that credentials in request headers (Authorization, cookies, ingest
 * keys, signatures) and in response headers (session cookies, the silently refreshed JWT) are written
 * as `[redacted]`. `destination` defaults to stdout.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-service-key"]',
        'req.headers["x-service-signature"]',
        'res.headers["set-cookie"]',
        'res.headers["x-refreshed-token"]',
        '*.password',
        '*.token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
