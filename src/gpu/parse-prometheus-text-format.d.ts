declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): Array<{
    name: string;
    help?: string;
    type?: string;
    metrics: Array<{ value: string; labels?: Record<string, string> }>;
  }>;
}
