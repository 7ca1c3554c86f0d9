/**
 * How the server's heap grows. V8 sizes its heap for the machine: on a server with gigabytes free, a burst of
 * requests grows the young generation to 64 MB and the old one far past what is live, and the process holds
 * ~250 MB more than it uses until it has been idle a while (532 MB after 30 s of mixed traffic, `npm run bench
 * memory`). A small site's server should stay small:
 * - the old generation grows by a tenth at a time (`--heap-growing-percent=10`), and its marking starts once half of
 *   that room is used (`--incremental-marking-soft-trigger=50`). V8's own rule starts marking as soon as the room
 *   left is no larger than the young generation: with a fifth (`=20`, until December 2026) and the young generation
 *   below, that was true right after every full collection, so that under load one followed another, back to back
 *   (17 in 3 000 image-proxy answers on S3; none with the trigger), their marking threads taking a third of the
 *   process's CPU: the proxy on S3 took 0.9–1.2 ms of CPU an answer, 0.5 ms with the trigger (a bare proxy: 0.4 ms);
 *   signed-in pages answer 15–30 % more requests a second (`npm run bench members`), for about the same memory:
 *   `npm start` on a fresh embedded site, 40 s of mixed traffic from 8 clients (pages, photos, contact requests,
 *   failed sign-ins), peaked at 327 MB (the server; 390 MB with npm) before and 337 MB (407 MB) after, while
 *   answering 23 % more requests (9 969 → 12 297); after the same traffic with two uploaded photos served, 309 MB
 *   (374 MB), and on PostgreSQL 273 MB (342 MB) (`/usr/bin/time -v` and the process tree's RSS, 2 December);
 * - the young generation is at most 32 MB, two semi-spaces of 16 MB (`--max-semi-space-size=16`, a start-up flag in
 *   V8_FLAGS below). Left to itself it reaches 64 MB on Node.js 24 (two of 32 MB), and the server 419 MB after 60 s
 *   of mixed traffic. Held at its starting size (2 MB), as it was until November 2026, every dynamic request paid for
 *   scavenges of what the other requests in flight still held, and promoted it: a fifth of a signed-in page's CPU
 *   went to the collector; at 16–32 MB signed-in pages answer ~25 % more requests a second (PostgreSQL: /aide
 *   777–840 → 1 005–1 017, the course page 504–511 → 626–649). From November to December 2026 the bound was steered
 *   at run time (the growth factor turned to 1 by a GC observer once the size was reached), which the start-up
 *   defeated: the observer's callbacks wait for the event loop, and opening and migrating the embedded database is
 *   long synchronous work, so the young generation had reached 64 MB before the first callback ran — the server held
 *   304 MB at start and peaked at 361 MB after 30 s of mixed traffic (`/proc/<pid>/status`, 7 December). With the
 *   flag: 248 MB at start, 281 MB after the same traffic, a peak of 298 MB. At 16 MB (two of 8, 7 December) every
 *   batch of an export outlived two scavenges and was promoted: the embedded server grew by 236 MB while the CSV of
 *   200,000 leads went out (`npm run bench scale`), every page of old generation it churned through staying mapped
 *   until the process was idle; at 32 MB it grows by 1–6 MB, the export takes 5.5 s instead of 7, and the mixed
 *   traffic's peak is 290 MB instead of 270 (`npm run bench memory`).
 *
 * `--optimize-for-size` held memory as well but made V8 compile for size: 15–25 % fewer requests a second on every
 * path. The flags are set from here rather than on a command line so that every way of starting the server (npm
 * start, the image, node build/server.js, a service manager) gets them.
 */
import v8 from 'node:v8';

/**
 * glibc's malloc hands memory it freed back to the system only for blocks it mapped on their own, and after the
 * first such block is freed it raises that threshold to the block's size (up to 32 MB): from then on, what a
 * request briefly needs (a 19 MiB password hash, a page's buffers, the database driver's) stays in the process.
 * Fixed, the server holds 45–65 MB less: 194 MB instead of 237 MB after start-up, 258 MB instead of 323 MB after
 * 60 s of mixed traffic (`npm run bench memory`). glibc reads the setting when a process starts, so a server
 * started without it (node build/server.js, a service manager) starts again, at once and as the same process
 * (startWithProcessSettings). The image, `npm start` and the systemd unit set it themselves
 * (tests/static/allocator-settings.test.ts holds the four to one value, as it does the arenas' below).
 *
 * 128 KiB, glibc's own starting threshold, not 64 KiB (until December 2026): Node.js reads sockets into 64 KiB slabs,
 * each a 69 632-byte block, and a slab still held by a chunk in flight is replaced by a new one. Above a 64 KiB
 * threshold every new slab was a mapping of its own, made and unmade: on S3, where each photo comes from the bucket
 * in such chunks, a quarter of the proxy's answers paid an mmap and a munmap (`strace -c`: 366 and 328 in 1 500
 * answers; none at 128 KiB). The memory held is the same: after 60 s of mixed traffic 348 and 351 MB on the
 * embedded database, 287 and 286 MB on PostgreSQL (`npm run bench memory`, one run each, 4 December).
 *
 * Two arenas (`MALLOC_ARENA_MAX`, since December 2026): glibc gives each thread that meets a busy arena one of its
 * own, up to eight per core, and what a thread freed stays in its arena for the next block of that thread. The
 * server's threads (libuv's pool, V8's, sharp's, the password hashes') each kept their own: on a new site on the
 * embedded database, the server started at 228–230 MB and peaked at 287–299 MB through 30 s of mixed traffic
 * (foundation/memory.e2e.ts's, three runs each, 7 December); with two, 219–224 MB and 279–288 MB (six runs),
 * answering as many requests (11–13 thousand either way), where the peak's limit is 300 MB and CI had met 310. Failed
 * sign-ins set the peak: the same traffic without them peaks at 264 MB. Through a burst of them, what glibc's heap
 * holds most at its peak is the zones of V8's concurrent JavaScript compilers (Maglev's: 55 MB, heaptrack, 8
 * December), not the hashes. As an operator meets it (`/usr/bin/time -v npm start`, a new embedded site, 8 December):
 * mixed traffic, the server 288 MB and its process tree 414 MB at their peaks; failed sign-ins alone, 322 MB and 447
 * MB. Without Maglev (`--no-maglev`) a burst of failed sign-ins peaks 46 MB lower, for 5–9 % fewer requests there and
 * up to a third fewer on the embedded database in `npm run bench memory`: not used (docs/performance.md, 8 December).
 */
export const ALLOCATOR_SETTINGS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' } as const;

/** The allocator's settings the process was not started with (a value given is kept). */
const missingAllocatorSettings = (env: NodeJS.ProcessEnv): Partial<typeof ALLOCATOR_SETTINGS> =>
	Object.fromEntries(Object.entries(ALLOCATOR_SETTINGS).filter(([name]) => env[name] === undefined));

/** The young generation's bound: two semi-spaces of 16 MB (see the top of this file). */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=16';

/**
 * PostgreSQL compiled to WebAssembly (the embedded database) has functions so large that V8's optimising compiler,
 * tiering up the hot ones, takes 500 MB for itself while it works: the commands peaked at 720–750 MB, 650 MB of it
 * to open the database (`npm run bench backup`), and the server at 765 MB (VmHWM) a few seconds after every start,
 * before settling at ~235 MB — on a 512 MB server, the start is when it would die. V8's baseline compiler alone
 * (`--liftoff-only`) opens it at 155 MB and the server peaks at ~240 MB. The price, measured on the embedded
 * database: inserts 3 % slower, lookups by key 16 %, scans and aggregates (the dashboard's) 60 %; pages answered as
 * fast, their time being the rendering's. V8 reads the flag at start-up only (setting it later changes nothing), so
 * a process started without it starts again with it, at once and as the same process (execve: same pid, same file
 * descriptors), with the allocator's settings too. So is the young generation's bound (see the top of this file),
 * which V8 also reads only when the heap is set up.
 */
export const V8_FLAGS = ['--liftoff-only', YOUNG_GENERATION_FLAG] as const;

/**
 * The operators' commands keep the young generation at 16 MB (two semi-spaces of 8): a restore's batches are large
 * strings that die at once, and at 32 MB `npm run restore` of `npm run bench scale`'s archive into the embedded
 * database peaked at 307–315 MB in 64–76 s; at 16 MB, 267 MB in 62 s (at 8 MB, 257 MB in 89 s). `npm run backup`
 * takes the same time at either size.
 */
export const COMMAND_V8_FLAGS = ['--liftoff-only', '--max-semi-space-size=8'] as const;

/**
 * The server's and the commands' start: with V8_FLAGS and ALLOCATOR_SETTINGS, starting again if either is missing.
 * Called by each built entry's launcher (scripts/build-server.mjs) before the entry's bundle is loaded, so that a
 * restart does not load it twice.
 */
export function startWithProcessSettings(flags: readonly string[] = V8_FLAGS): void {
	/* eslint-disable no-restricted-properties -- the process's own start, not the application's configuration */
	const missing = flags.filter((flag) => !process.execArgv.includes(flag));
	const allocator =
		process.platform === 'linux' && !!glibcVersion() ? missingAllocatorSettings(process.env) : {};
	if ((!missing.length && !Object.keys(allocator).length) || typeof process.execve !== 'function') return;
	process.execve(
		process.execPath,
		[process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)],
		{ ...process.env, ...allocator }
	);
	/* eslint-enable no-restricted-properties */
}

function glibcVersion(): string | undefined {
	const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
	return report?.header?.glibcVersionRuntime;
}

/** How the old generation grows and when its marking starts (see above). */
export const OLD_GENERATION_FLAGS = [
	'--heap-growing-percent=10',
	'--incremental-marking-soft-trigger=50'
] as const;

/** V8 reads these as the old generation grows, so they are set here rather than at start-up. */
export function boundHeapGrowth(): void {
	for (const flag of OLD_GENERATION_FLAGS) v8.setFlagsFromString(flag);
}

/** The young generation's size now (both semi-spaces), in bytes. */
export function youngGenerationSize(): number {
	return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}
