// The OTEL_* variables as the tier and sf-daemon read them (proto/runtime/tracing-env.ts):
// unset or none is no SDK; the standard values are taken; anything else stops the start
// with a message naming its variable, in the side's own error class.
import { describe, expect, it } from 'vitest';
import { tracingSettings } from '../../proto/runtime/tracing-env.js';
import { ConfigError, parseConfig } from '../../server/config.js';
import { DaemonSettingsError, daemonTracing } from '../../daemons/settings.js';

describe('tracing settings', () => {
  it('asks for no SDK when OTEL_TRACES_EXPORTER is unset, none, or OTEL_SDK_DISABLED is true', () => {
    expect(tracingSettings({}, 'x')).toBeUndefined();
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'none' }, 'x')).toBeUndefined();
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: ' ' }, 'x')).toBeUndefined();
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }, 'x')).toBeUndefined();
    expect(parseConfig({}, []).tracing).toBeUndefined();
  });

  it('takes the standard values, with the spec defaults for the rest', () => {
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' }, 'sf-database')).toEqual({
      exporters: ['otlp'],
      otlpUrl: 'http://localhost:4318/v1/traces',
      sampler: 'parentbased_always_on',
      ratio: 1,
      serviceName: 'sf-database',
    });
    const s = tracingSettings(
      {
        OTEL_TRACES_EXPORTER: 'otlp,console',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.01',
        OTEL_SERVICE_NAME: 'tier-eu',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      },
      'sf-database',
    );
    expect(s).toEqual({ exporters: ['otlp', 'console'], otlpUrl: 'http://collector:4318/v1/traces', sampler: 'parentbased_traceidratio', ratio: 0.01, serviceName: 'tier-eu' });
    // The traces endpoint is used as given, and wins over the base one.
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/traces' }, 'x')?.otlpUrl).toBe('https://b/traces');
    // The argument of a sampler that takes none is ignored, as the spec says.
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_SAMPLER: 'always_on', OTEL_TRACES_SAMPLER_ARG: 'x' }, 'x')?.ratio).toBe(1);
  });

  it.each([
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://c/v1/traces' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1%' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '-0.1' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [{ OTEL_SDK_DISABLED: 'yes' }, 'OTEL_SDK_DISABLED'],
  ])('refuses %o naming %s, as the tier\'s ConfigError and sf-daemon\'s DaemonSettingsError', (env, variable) => {
    expect(() => tracingSettings(env, 'x')).toThrow(new RegExp(`^${variable}: `));
    expect(() => parseConfig(env, [])).toThrow(ConfigError);
    expect(() => parseConfig(env, [])).toThrow(new RegExp(`^${variable}: `));
    expect(() => daemonTracing(env)).toThrow(DaemonSettingsError);
  });
});
