import { createServer, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { answerJson, bodyOf, listenLocally } from './stand-in-server';

/**
 * A local stand-in for an OpenTelemetry collector's OTLP/HTTP receiver (traces, JSON encoding),
 * written from the OTLP specification, https://opentelemetry.io/docs/specs/otlp/ ("OTLP/HTTP
 * Request", "OTLP/HTTP Response", "JSON Protobuf Encoding", "Failures", "OTLP/HTTP Throttling"):
 * - POST /v1/traces (the default path under the endpoint), `Content-Type: application/json`, the
 *   body an ExportTraceServiceRequest in protobuf's JSON mapping, gzip-compressed when the client
 *   says `Content-Encoding: gzip`: `{resourceSpans: [{resource: {attributes}, scopeSpans: [{scope,
 *   spans: [{traceId, spanId, parentSpanId, name, kind, startTimeUnixNano, endTimeUnixNano,
 *   attributes, status}]}]}]}`. Unlike protobuf's own JSON mapping, trace and span ids are hex
 *   strings (not base64) and enums are integers (span kind 2 is SERVER, 3 CLIENT); an attribute
 *   is `{key, value: {stringValue | intValue | boolValue | doubleValue | arrayValue}}`.
 * - Success: 200 with an ExportTraceServiceResponse, `{}` or with `partialSuccess`, in the
 *   request's content type.
 * - Failure: 400 with a Status (`{code, message}`) for data it cannot read, not to be retried;
 *   429, 502, 503 and 504 are the retryable answers, optionally with Retry-After.
 *
 * `mode` says how it answers: `ok`; `fail` (503, retryable); `hang` (never answers: the exporter's
 * timeout fires); `garbage` (200 with a body that is not JSON).
 */
export type OtlpMode = 'ok' | 'fail' | 'hang' | 'garbage';

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number; arrayValue?: { values?: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };

/** A span as received, with its resource's and scope's attributes beside it. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  scope: string;
};

export type OtlpStandIn = {
  url: string;
  mode: OtlpMode;
  /** Every span of every request it took (`ok` mode), oldest first. */
  spans: ReceivedSpan[];
  /** Every export request: its path, headers and answer. */
  requests: { path: string; headers: IncomingHttpHeaders; status: number | 'none' }[];
  close: () => Promise<void>;
};

export const SPAN_KIND_SERVER = 2;

const valueOf = (value: AnyValue): unknown => {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
};
const attributesOf = (list: KeyValue[] | undefined): Record<string, unknown> => Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));

type ExportTraceServiceRequest = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: (Omit<ReceivedSpan, 'attributes' | 'resource' | 'scope'> & { attributes?: KeyValue[] })[] }[];
  }[];
};

export async function startOtlpStandIn(): Promise<OtlpStandIn> {
  const standIn: OtlpStandIn = { url: '', mode: 'ok', spans: [], requests: [], close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    void bodyOf(request).then((received) => {
      const seen: OtlpStandIn['requests'][number] = { path: request.url ?? '', headers: request.headers, status: 'none' };
      standIn.requests.push(seen);
      const answer = (status: number, body: unknown) => {
        seen.status = status;
        answerJson(response, status, body, 'application/json');
      };
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        answer(404, { code: 5, message: 'not found' });
        return;
      }
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        answer(415, { code: 3, message: 'this stand-in takes the JSON encoding only' });
        return;
      }
      const mode = standIn.mode;
      if (mode === 'hang') return;
      if (mode === 'fail') {
        seen.status = 503;
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ code: 14, message: 'the collector is unavailable' }));
        return;
      }
      if (mode === 'garbage') {
        seen.status = 200;
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"partialSuccess": {');
        return;
      }
      let body: ExportTraceServiceRequest;
      try {
        body = JSON.parse((request.headers['content-encoding'] === 'gzip' ? gunzipSync(received) : received).toString('utf8')) as ExportTraceServiceRequest;
      } catch {
        answer(400, { code: 3, message: 'the body is not an ExportTraceServiceRequest' });
        return;
      }
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            standIn.spans.push({ ...span, attributes: attributesOf(span.attributes), resource, scope: scopeSpans.scope?.name ?? '' });
          }
        }
      }
      answer(200, {});
    });
  });
  Object.assign(standIn, await listenLocally(server));
  return standIn;
}
