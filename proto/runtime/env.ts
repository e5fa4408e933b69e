// The words every SFDB_* setting is read with, for the three places that read them — the
// tier (server/config.ts), the client (client/config.ts) and the daemons
// (daemons/settings.ts) — so that a value means the same wherever it is read. Each side
// keeps its own settings object and its own error class; the words are these:
//
//   on/off     on: 1, true, yes, on — off: 0, false, no, off (any case)
//   integers   decimal digits with an optional '-', within the setting's range
//   durations  integers, in milliseconds (the settings named …_MS); no units
//   lists      integers separated by commas, no empty item
//   empty      unset or blank: the setting's default
//
// Spaces around a value are ignored; any other value stops the start with a message
// naming the setting.

/** How a side reports a bad value: its own error class (ConfigError, DaemonSettingsError, Error). */
export type SettingErrorClass = new (message: string) => Error;

export const ON_WORDS: readonly string[] = ['1', 'true', 'yes', 'on'];
export const OFF_WORDS: readonly string[] = ['0', 'false', 'no', 'off'];

/** The value of `name` in `env`, or undefined when it is unset or blank (the default applies). */
export function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}

/** An on/off value: true for an ON word, false for an OFF word; anything else is refused. */
export function parseOnOff(name: string, raw: string, Failure: SettingErrorClass = Error): boolean {
  const word = raw.trim().toLowerCase();
  if (ON_WORDS.includes(word)) return true;
  if (OFF_WORDS.includes(word)) return false;
  throw new Failure(`${name}: "${raw}" is neither on (${ON_WORDS.join(', ')}) nor off (${OFF_WORDS.join(', ')})`);
}

export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

/** An integer (a duration is one, in milliseconds) within `range` (default: any safe integer). */
export function parseInteger(name: string, raw: string, range: IntegerRange = {}, Failure: SettingErrorClass = Error): number {
  const text = raw.trim();
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) throw new Failure(`${name}: "${raw}" is not an integer`);
  const { min, max } = range;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
    const bounds = max === undefined ? `below ${min}` : min === undefined ? `above ${max}` : `outside ${min}..${max}`;
    throw new Failure(`${name}: ${value} is ${bounds}`);
  }
  return value;
}

/** Integers separated by commas, each within `range`; an empty item is refused. */
export function parseIntegerList(name: string, raw: string, range: IntegerRange = {}, Failure: SettingErrorClass = Error): number[] {
  return raw.split(',').map((item) => parseInteger(name, item, range, Failure));
}
