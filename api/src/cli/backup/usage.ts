/** The backup commands' lines of the CLI's usage (cli.ts loads the commands themselves on demand). */
export const BACKUP_USAGE = `  backup:create <dir>                      database (one snapshot), the objects it names and manifest.json
                                           into a new directory, while the app runs
  backup:verify <dir>                      recompute every checksum; exit 1 on any difference
  backup:restore <dir> [--force] [--journal <file>]
                                           into the database and bucket of the environment (a missing
                                           database is created); replays the erasure journal
  backup:run [--once [--as-of <date>]]     the backup service: nightly at BACKUP_AT into BACKUP_DIR,
                                           offsite copy (BACKUP_S3_*), rotation; --once runs one now`;
