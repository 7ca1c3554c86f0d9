// `npm run test:container`: builds docker/Dockerfile as it is and checks the running image as a self-hosting
// team meets it — /healthz on the embedded defaults and on PostgreSQL, a page, an upload served back, a
// non-root user that cannot write its own code, a clean stop on SIGTERM, the size of the layers the image adds,
// and no build tool or unused validator in its node_modules.
//
// With a Docker daemon it uses `docker` and the official base image. Without one (CI here: no daemon, no image
// registry), it uses Podman and builds a stand-in for the official base (scripts/container/standin-base.sh).
// PostgreSQL: DATABASE_URL names a server the container can reach (default postgres://postgres@127.0.0.1:5432/
// postgres, the machine's own); the test makes a database of its own there and drops it. CONTAINER_SKIP_PG=1
// skips that part where no server runs.
// `--build-only` builds the image and stops there (CI builds it beside its first steps, then runs the whole test,
// which finds every layer built).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { forbiddenInRuntime, productionPackages } from './runtime-packages.mjs';

const root = path.resolve(import.meta.dirname, '..');
const IMAGE = 'atelier:container-test';
/** The goal of issue "Self-hosting, part 1": the layers our Dockerfile adds to the base image. */
const MAX_ADDED_MB = 200;
const STOP_GRACE_S = 15;
const started = Date.now();
const failures = [];
const figures = [];
let passed = 0;

function check(ok, what, detail = '') {
	console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` — ${detail}` : ''}`);
	if (ok) passed += 1;
	else failures.push(what);
}

function run(command, args, { allowFail = false, input } = {}) {
	const result = spawnSync(command, args, {
		cwd: root,
		encoding: 'utf8',
		maxBuffer: 256 * 1024 * 1024,
		input
	});
	if (result.status !== 0 && !allowFail) {
		throw new Error(
			`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`
		);
	}
	return result;
}

// --- The engine ------------------------------------------------------------------------------------------------
const dockerDaemon = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
const engine = dockerDaemon
	? { name: 'docker', command: 'docker', global: [], build: [], net: [] }
	: {
			name: 'podman',
			command: 'podman',
			// This sandbox's kernel: runc with cgroupfs (crun refuses the hybrid cgroups); host network so that the
			// build's `npm ci` reaches the registry and the container reaches the machine's PostgreSQL.
			global: ['--runtime', 'runc', '--cgroup-manager=cgroupfs'],
			// Two stages at once (BuildKit does so by itself): the runtime's `npm ci --omit=dev` downloads while the build
			// stage compiles, instead of after it.
			build: ['--pull=never', '--network', 'host', '--jobs', '2'],
			net: ['--network', 'host']
		};
const ctr = (args, options) => run(engine.command, [...engine.global, ...args], options);

const dockerfile = readFileSync(path.join(root, 'docker', 'Dockerfile'), 'utf8');
const bases = [...new Set([...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]))];
check(bases.length === 1, 'one base image for every stage', bases.join(', '));
const base = bases[0];
const baseMatch = /^node:(\d+\.\d+)(?:\.\d+)?-bookworm-slim$/.exec(base);
check(!!baseMatch, 'the base is an official Node image pinned to a minor version', base);

if (!dockerDaemon) {
	// Installs podman if needed and builds the stand-in under the official name (idempotent).
	run('bash', [
		path.join(root, 'scripts', 'container', 'standin-base.sh'),
		baseMatch[1],
		`docker.io/library/${base}`
	]);
}

// --- Build -------------------------------------------------------------------------------------------------------
let t = Date.now();
ctr(['build', ...engine.build, '-f', 'docker/Dockerfile', '-t', IMAGE, '.']);
figures.push(`build ${Math.round((Date.now() - t) / 1000)} s`);
if (process.argv.includes('--build-only')) {
	console.log(
		`container (${engine.name}, ${base}): image built (${figures.join(', ')}); not run (--build-only)`
	);
	process.exit(failures.length ? 1 : 0);
}

// --- Size ---------------------------------------------------------------------------------------------------------
const layers = (image) =>
	JSON.parse(ctr(['history', '--no-trunc', '--format', 'json', image]).stdout).map(
		(l) => l.size ?? l.Size ?? 0
	);
const baseRef = dockerDaemon ? base : `docker.io/library/${base}`;
const all = layers(IMAGE);
const baseLayers = layers(baseRef);
const addedBytes = all.slice(0, all.length - baseLayers.length).reduce((sum, n) => sum + Number(n), 0);
const addedMb = addedBytes / 1e6;
figures.push(`added layers ${addedMb.toFixed(1)} MB`);
check(
	addedMb <= MAX_ADDED_MB,
	`the image adds at most ${MAX_ADDED_MB} MB to its base`,
	`${addedMb.toFixed(1)} MB`
);

const inImage = (script) =>
	ctr(['run', '--rm', ...engine.net, '--entrypoint', 'sh', IMAGE, '-c', script]).stdout.trim();
const modulesMb = Number(inImage('du -sk /app/node_modules | cut -f1')) / 1000;
figures.push(`node_modules ${modulesMb.toFixed(1)} MB`);

// The packages the image holds must be exactly the production install of the lock file (package.json's
// `dependencies` and theirs): no build tool, no validator library superforms lists as optional.
// Every package folder, hoisted or nested: a package.json right below a node_modules/ (or node_modules/@scope/).
const installed = [
	...new Set(
		inImage('find /app/node_modules -name package.json')
			.split('\n')
			.map((file) => /node_modules\/((?:@[^/]+\/)?[^/@]+)\/package\.json$/.exec(file)?.[1])
			.filter(Boolean)
	)
].sort();
const forbidden = forbiddenInRuntime();
const offenders = installed.filter((name) => forbidden.has(name));
check(
	offenders.length === 0,
	'no build tool or unused validator in the image',
	offenders.join(', ') || `${installed.length} packages`
);
const expected = new Set(productionPackages());
const unexpected = installed.filter((name) => !expected.has(name));
check(
	unexpected.length === 0,
	"the image holds only the lock file's production packages",
	unexpected.join(', ')
);

// --- Ownership ----------------------------------------------------------------------------------------------------
const uid = inImage('id -u');
check(uid !== '0' && uid !== '', 'the server runs as an unprivileged user', `uid ${uid}`);
check(
	inImage('stat -c %U /app /app/build /app/node_modules /app/build/drizzle | sort -u') === 'root',
	'/app is owned by root'
);
check(
	inImage('touch /app/build/server.js 2>/dev/null && echo yes || echo no') === 'no',
	'the server cannot change its code'
);
check(
	inImage('touch /app/new 2>/dev/null && echo yes || echo no') === 'no',
	'the server cannot add files to /app'
);
check(inImage('touch /data/probe && echo yes || echo no') === 'yes', '/data is writable');

// --- Running ------------------------------------------------------------------------------------------------------
async function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

async function waitHealthy(url, name) {
	const deadline = Date.now() + 90_000;
	while (Date.now() < deadline) {
		try {
			const response = await fetch(`${url}/healthz`);
			if (response.ok) return response;
		} catch {
			// not listening yet
		}
		const state = ctr(['inspect', '--format', '{{.State.Running}}', name], { allowFail: true }).stdout.trim();
		if (state === 'false') break;
		await new Promise((r) => setTimeout(r, 250));
	}
	return null;
}

async function startContainer(label, env = {}) {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	const name = `atelier-test-${label}-${process.pid}`;
	const envArgs = Object.entries({ PORT: String(port), ORIGIN: url, ...env }).flatMap(([k, v]) => [
		'-e',
		`${k}=${v}`
	]);
	ctr([
		'run',
		'-d',
		'--name',
		name,
		...engine.net,
		...(engine.net.length ? [] : ['-p', `${port}:${port}`]),
		...envArgs,
		IMAGE
	]);
	t = Date.now();
	const healthy = await waitHealthy(url, name);
	check(
		!!healthy,
		`/healthz answers 200 (${label})`,
		healthy ? `after ${((Date.now() - t) / 1000).toFixed(1)} s` : logsOf(name)
	);
	return { name, url, healthy: !!healthy };
}

function logsOf(name) {
	const logs = ctr(['logs', name], { allowFail: true });
	return `${logs.stdout}${logs.stderr}`.slice(-3000);
}

async function stopContainer({ name }, label) {
	t = Date.now();
	ctr(['stop', '-t', String(STOP_GRACE_S), name], { allowFail: true });
	const seconds = (Date.now() - t) / 1000;
	const exitCode = ctr(['inspect', '--format', '{{.State.ExitCode}}', name], {
		allowFail: true
	}).stdout.trim();
	const logs = logsOf(name);
	check(
		exitCode === '0' && seconds < STOP_GRACE_S - 1,
		`SIGTERM stops it cleanly within the grace period (${label})`,
		`exit ${exitCode} in ${seconds.toFixed(1)} s`
	);
	check(/"message":"stopped"/.test(logs), `it says it stopped after draining (${label})`);
	ctr(['rm', '-f', name], { allowFail: true });
	return seconds;
}

async function pageAndUpload(url, label) {
	const home = await fetch(`${url}/`);
	check(
		home.status === 200 && /<html lang="fr"/.test(await home.text()),
		`a page is served (${label})`,
		`GET / ${home.status}`
	);

	const admin = { email: 'admin@container.test', password: 'une phrase de passe solide', name: 'Admin' };
	const setup = await fetch(`${url}/api/admin/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(admin)
	});
	const login = await fetch(`${url}/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, accept: 'text/html' },
		body: new URLSearchParams({ email: admin.email, password: admin.password }),
		redirect: 'manual'
	});
	const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0];
	check(
		setup.status === 201 && login.status === 303 && !!cookie,
		`the first admin signs in (${label})`,
		`setup ${setup.status}, login ${login.status}`
	);

	const photo = readFileSync(path.join(root, 'tests', 'fixtures', 'images', 'Landscape_1.jpg'));
	const form = new FormData();
	form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
	const upload = await fetch(`${url}/api/admin/upload`, {
		method: 'POST',
		headers: { cookie, origin: url },
		body: form
	});
	const uploaded = upload.status === 201 ? await upload.json() : null;
	check(!!uploaded?.value?.startsWith('storage:'), `an upload is stored (${label})`, `${upload.status}`);
	if (!uploaded) return;
	const save = await fetch(`${url}/api/admin/site-images`, {
		method: 'PUT',
		headers: { cookie, origin: url, 'content-type': 'application/json' },
		body: JSON.stringify({ key: 'hero', url: uploaded.value })
	});
	const image = await fetch(`${url}/api/img/hero`);
	const bytes = Buffer.from(await image.arrayBuffer());
	const webp = bytes.subarray(0, 4).toString() === 'RIFF' && bytes.subarray(8, 12).toString() === 'WEBP';
	check(
		save.status === 200 && image.status === 200 && webp && !image.headers.get('x-image-fallback'),
		`the upload is served back through the image proxy (${label})`,
		`PUT ${save.status}, GET /api/img/hero ${image.status}, ${bytes.length} bytes`
	);
}

const containers = [];
let database = null;
let admin = null;
try {
	const embedded = await startContainer('embedded');
	containers.push(embedded);
	if (embedded.healthy) await pageAndUpload(embedded.url, 'embedded');
	const stopSeconds = await stopContainer(embedded, 'embedded');
	figures.push(`stop ${stopSeconds.toFixed(1)} s`);

	if (process.env.CONTAINER_SKIP_PG !== '1') {
		const serverUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
		const name = `atelier_container_${Date.now()}`;
		// Imported here: `--build-only` runs before `npm ci` has installed it.
		const { default: postgres } = await import('postgres');
		admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
		await admin.unsafe(`create database ${name}`);
		database = new URL(serverUrl);
		database.pathname = `/${name}`;
		const onPg = await startContainer('postgresql', { DATABASE_URL: database.href });
		containers.push(onPg);
		if (onPg.healthy) await pageAndUpload(onPg.url, 'postgresql');
		await stopContainer(onPg, 'postgresql');
	}
} finally {
	for (const { name } of containers) ctr(['rm', '-f', name], { allowFail: true });
	if (admin) {
		if (database) await admin.unsafe(`drop database if exists ${database.pathname.slice(1)} with (force)`);
		await admin.end();
	}
}

figures.push(`total ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`\ncontainer (${engine.name}, ${base}): ${figures.join(', ')}`);
console.log(`${passed} passed, ${failures.length} failed`);
if (failures.length) {
	console.error(`failed: ${failures.join('; ')}`);
	process.exit(1);
}
