// The standard OpenTelemetry variables of tracing, read once into a frozen object, for the
// two processes that export traces — the tier (server/config.ts) and sf-daemon
// (daemons/settings.ts) — so that a value means the same in both; ./tracing.ts registers
// the SDK as they ask. Any value not below stops the start with a message naming its
// variable (in the side's own error class, as ./env.ts's words do).
//
// The variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/):
//   OTEL_SDK_DISABLED                    true: no SDK whatever the rest says
//   OTEL_TRACES_EXPORTER                 otlp, console, or both (comma-separated); none or unset:
//                                        no SDK (the spec's default is otlp: here nothing is paid
//                                        unless asked for)
//   OTEL_EXPORTER_OTLP_TRACES_ENDPOINT   the traces URL as given
//   OTEL_EXPORTER_OTLP_ENDPOINT          a base URL; /v1/traces is appended (default http://localhost:4318)
//   OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL http/json only (or unset): the exporter built in sends JSON
//   OTEL_TRACES_SAMPLER                  always_on, always_off, traceidratio, parentbased_always_on
//                                        (the default), parentbased_always_off, parentbased_traceidratio
//   OTEL_TRACES_SAMPLER_ARG              the ratio of the *traceidratio samplers, 0 to 1 (default 1)
//   OTEL_SERVICE_NAME                    default: the process's (sf-database, sf-daemon)
// The OTLP exporter reads its own OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION and
// certificate files.
import type { SettingErrorClass } from './env.js';
import { envValue } from './env.js';

export const TRACE_EXPORTERS = ['otlp', 'console'] as const;
export type TraceExporterName = (typeof TRACE_EXPORTERS)[number];

export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

/** What the variables ask for, once tracing is on. */
export interface TracingSettings {
  readonly exporters: readonly TraceExporterName[];
  /** Where OTLP/HTTP spans are posted (used when `exporters` has otlp). */
  readonly otlpUrl: string;
  readonly sampler: TraceSamplerName;
  /** The ratio of the *traceidratio samplers (OTEL_TRACES_SAMPLER_ARG), 0 to 1. */
  readonly ratio: number;
  readonly serviceName: string;
}

/** The spec's default collector, OTLP over HTTP. */
const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4318';

function httpUrl(name: string, raw: string, Failure: SettingErrorClass): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Failure(`${name}: "${raw.slice(0, 200)}" is not a URL (http://collector:4318)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Failure(`${name}: "${raw.slice(0, 200)}" is not an http:// or https:// URL`);
  return url;
}

/**
 * The tracing the variables of `env` ask for, or undefined for none (no SDK registered:
 * every span the API makes is a no-op). `serviceName`: the default of OTEL_SERVICE_NAME.
 * A value that is not one of the above throws `Failure` naming its variable.
 */
export function tracingSettings(env: NodeJS.ProcessEnv, serviceName: string, Failure: SettingErrorClass = Error): TracingSettings | undefined {
  const disabled = envValue(env, 'OTEL_SDK_DISABLED');
  if (disabled !== undefined) {
    const word = disabled.trim().toLowerCase();
    if (word !== 'true' && word !== 'false') throw new Failure(`OTEL_SDK_DISABLED: "${disabled.slice(0, 40)}" is neither true nor false`);
    if (word === 'true') return undefined;
  }
  const listed = (envValue(env, 'OTEL_TRACES_EXPORTER') ?? 'none').split(',').map((s) => s.trim().toLowerCase());
  for (const name of listed) {
    if (name !== 'none' && !(TRACE_EXPORTERS as readonly string[]).includes(name)) {
      throw new Failure(`OTEL_TRACES_EXPORTER: "${name.slice(0, 40)}" is not one of the trace exporters built in (${TRACE_EXPORTERS.join(', ')}, none)`);
    }
  }
  const exporters = [...new Set(listed.filter((n): n is TraceExporterName => n !== 'none'))];
  if (exporters.length === 0) return undefined;

  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = envValue(env, name);
    if (protocol !== undefined && protocol.trim() !== 'http/json') {
      throw new Failure(`${name}: "${protocol.slice(0, 40)}" is not supported: the OTLP exporter built in sends http/json (set it to http/json, or unset it)`);
    }
  }
  const tracesEndpoint = envValue(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = envValue(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  let otlpUrl: string;
  if (tracesEndpoint !== undefined) {
    otlpUrl = httpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint, Failure).href;
  } else {
    const base = httpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', baseEndpoint ?? DEFAULT_OTLP_ENDPOINT, Failure);
    otlpUrl = `${base.href.replace(/\/$/, '')}/v1/traces`;
  }

  const samplerRaw = (envValue(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on').trim().toLowerCase();
  if (!(TRACE_SAMPLERS as readonly string[]).includes(samplerRaw)) {
    throw new Failure(`OTEL_TRACES_SAMPLER: "${samplerRaw.slice(0, 40)}" is not one of the samplers built in (${TRACE_SAMPLERS.join(', ')})`);
  }
  const sampler = samplerRaw as TraceSamplerName;
  let ratio = 1;
  const arg = envValue(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg !== undefined && sampler.endsWith('traceidratio')) {
    const text = arg.trim();
    ratio = Number(text);
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text) || ratio > 1) {
      throw new Failure(`OTEL_TRACES_SAMPLER_ARG: "${arg.slice(0, 40)}" is not a ratio from 0 to 1 (0.01 samples 1 % of traces)`);
    }
  }
  return Object.freeze({ exporters: Object.freeze(exporters), otlpUrl, sampler, ratio, serviceName: (envValue(env, 'OTEL_SERVICE_NAME') ?? serviceName).trim() });
}
