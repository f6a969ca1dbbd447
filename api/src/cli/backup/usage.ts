/** The backup commands' lines of the CLI's usage (cli.ts loads the commands themselves on demand). */
export const BACKUP_USAGE = `  backup:create <dir>                      database (one snapshot), the objects it names and manifest.json
                                           into a new directory (0700, files 0600), while the app runs
  backup:verify <dir> | --offsite <name|latest>
                                           recompute every checksum (an encrypted copy: every tag with
                                           BACKUP_ENCRYPTION_KEY first); exit 1 on any difference
  backup:restore <dir> | --offsite <name|latest> [--force] [--journal <dir|file>]
                                           into the database and bucket of the environment (a missing
                                           database is created; one in use or holding data is refused
                                           without --force); replays the erasure journal
  backup:run [--once [--as-of <date>]]     the backup service: nightly at BACKUP_AT into BACKUP_DIR,
                                           encrypted offsite copy (BACKUP_S3_*), rotation; --once runs one now`;
