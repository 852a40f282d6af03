/** Types for parse-prometheus-text-format (the package ships none). */
declare module 'parse-prometheus-text-format' {
  interface MetricFamily {
    name: string;
    help: string;
    type: string;
    metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string> }>;
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
