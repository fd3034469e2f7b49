/**
 * The CLI's side of the admin socket (src/server/admin-socket.ts): where a running server on DATA_DIR
 * listens, and sending a command there.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** Where a server on `dataDir` listens (and where the CLI looks). */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, 'run', 'ops.sock');
}

/**
 * The CLI side: sends `argv` to the server listening on `socketPath`. Resolves null when no server
 * answers there (no socket file, or one left by a server that is gone), so the CLI runs the command
 * itself.
 */
export function sendToAdminSocket(
  socketPath: string,
  argv: string[],
): Promise<{ code: number; stdout?: string; stderr?: string } | null> {
  if (!fs.existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { socketPath, path: '/v1/command', method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (res.statusCode !== 200)
              reject(new Error(`The running server refused the command: ${body.error ?? res.statusCode}`));
            else resolve(body);
          } catch (err) {
            reject(err as Error);
          }
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // Nobody listens: a socket file left behind by a server that died.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      else reject(err);
    });
    req.end(JSON.stringify({ argv }));
  });
}
