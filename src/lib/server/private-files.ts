/**
 * Files under DATA_DIR hold the database, the signing secret, people's e-mails and private photos: they belong
 * to the service's user alone, whatever umask the process was started with (a container's or a shell's 0000 or
 * 0002 would otherwise leave them group- or world-readable). Our own writes pass explicit modes too; the umask
 * covers what libraries write for us (PGlite's database files).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Call first thing in a process that writes under DATA_DIR. */
export function restrictNewFiles(): void {
	process.umask(0o077);
}
