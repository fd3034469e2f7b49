/**
 * An OTLP/HTTP endpoint on 127.0.0.1 for benchmarks: accepts every export (200), counts requests and
 * bytes, decodes nothing (the export's cost is the service's, not the sink's).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OtlpSink {
  url: string;
  exports: number;
  bytes: number;
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (sink.bytes += c.length));
    req.on('end', () => {
      sink.exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sink: OtlpSink = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: 0,
    bytes: 0,
    close: () => new Promise((r) => server.close(() => r())),
  };
  return sink;
}
