/**
 * pino logger: JSON lines, or readable lines (pino-pretty) for a person at a terminal. Secrets never reach
 * it: credentials, cookies and signatures are redacted before either format is written.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * The process logger. Guarantees that credentials in request headers (Authorization, cookies, ingest
 * keys, signatures) and in response headers (session cookies, the silently refreshed JWT) are written
 * as `[redacted]`. `destination` defaults to stdout. `pretty`: one readable, colourised line per record on
 * stdout (`08:01:02 INFO: message {fields}`; errors with their stack below), written synchronously.
 */
export function createLogger(level: string, destination?: DestinationStream, opts: { pretty?: boolean } = {}): Logger {
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
  if (opts.pretty && !destination) {
    // reqId only ties a request's lines together in a log store; at a terminal they are read in order.
    // Colours unless NO_COLOR is set (https://no-color.org): stdout is a terminal here, whatever TERM says.
    return pino(
      options,
      pretty({
        colorize: !process.env.NO_COLOR,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId',
        singleLine: true,
        sync: true,
        destination: 1,
      }),
    );
  }
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
