// What `sf-database backup FILE` and `sf-database restore FILE [--yes] [--bump N]` take
// beyond the tier's settings: parsed with the rest of the configuration (config.ts), which
// reports a refusal here as its own ConfigError (exit 2).

/** What backup and restore were asked. */
export interface ArchiveArgs {
  /** backup: the file to write (it must not exist); restore: the backup to read. */
  readonly file: string;
  /** restore: the operator confirmed that the database is replaced (--yes). */
  readonly confirmed: boolean;
  /** restore: the counter floor is at least the backup's highest counter plus this (--bump). */
  readonly bump: bigint;
}

/** --bump when not given: more values than any one counter is issued between a backup and its restore. */
export const DEFAULT_RESTORE_BUMP = 1_000_000_000n;

/** The flags only restore takes (config.ts adds them to sf-database's options). */
export const ARCHIVE_FLAGS = { yes: { type: 'boolean' }, bump: { type: 'string' } } as const;

/** Bad arguments of backup or restore; config.ts turns it into a ConfigError. */
export class ArchiveArgsError extends Error {
  override name = 'ArchiveArgsError';
}

/** backup FILE, restore FILE [--yes] [--bump N]; any other command takes no argument and neither flag. */
export function archiveArgs(command: string, rest: readonly string[], flags: Record<string, string | boolean | undefined>): ArchiveArgs | undefined {
  const bumpFlag = flags['bump'];
  if (command !== 'restore' && (flags['yes'] !== undefined || bumpFlag !== undefined)) {
    throw new ArchiveArgsError(`--${flags['yes'] !== undefined ? 'yes' : 'bump'} applies to restore only`);
  }
  if (command !== 'backup' && command !== 'restore') {
    if (rest.length > 0) throw new ArchiveArgsError(`unexpected arguments: ${rest.join(' ')}`);
    return undefined;
  }
  if (rest.length !== 1 || rest[0] === '') {
    throw new ArchiveArgsError(`${command} takes one FILE: sf-database ${command} FILE${command === 'restore' ? ' --yes' : ''}`);
  }
  let bump = DEFAULT_RESTORE_BUMP;
  if (typeof bumpFlag === 'string') {
    if (!/^\d{1,18}$/.test(bumpFlag) || BigInt(bumpFlag) < 1n) throw new ArchiveArgsError(`--bump: "${bumpFlag}" is not a whole number from 1 to 999999999999999999`);
    bump = BigInt(bumpFlag);
  }
  return { file: rest[0] as string, confirmed: flags['yes'] === true, bump };
}
