// The `storage-init` job of docker/compose.yaml, run by the app's image (Node, no dependency) before the app
// starts: makes Garage ready for Atelier through its admin API (v2), and does nothing that is done already.
//   1. a one-node layout, the first time;
//   2. the private bucket S3_BUCKET;
//   3. the app's key (S3_ACCESS_KEY / S3_SECRET_KEY, chosen in .env), allowed to read and write that bucket only.
// The admin token stays here and in Garage: the app never receives it.
const adminUrl = process.env.GARAGE_ADMIN_URL ?? 'http://garage:3903';
const token = required('GARAGE_ADMIN_TOKEN');
const bucket = process.env.S3_BUCKET || 'private-gallery';
const accessKeyId = required('S3_ACCESS_KEY');
const secretAccessKey = required('S3_SECRET_KEY');

if (!/^GK[0-9a-f]{24}$/.test(accessKeyId))
	fail('S3_ACCESS_KEY must be GK followed by 24 hex digits (Garage key id)');
if (!/^[0-9a-f]{64}$/.test(secretAccessKey)) fail('S3_SECRET_KEY must be 64 hex digits (Garage secret key)');

function required(name) {
	const value = process.env[name];
	if (!value) fail(`${name} is not set`);
	return value;
}

function fail(message) {
	console.error(`storage-init: ${message}`);
	process.exit(1);
}

/** One admin API call; `allow` lists the error statuses that mean "not there" rather than failure. */
async function call(endpoint, { query, body, allow = [] } = {}) {
	const url = new URL(`/v2/${endpoint}`, adminUrl);
	for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
	const response = await fetch(url, {
		method: body ? 'POST' : 'GET',
		headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
		body: body ? JSON.stringify(body) : undefined,
		signal: AbortSignal.timeout(10_000)
	});
	if (allow.includes(response.status)) return null;
	if (!response.ok) fail(`${endpoint} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
	return response.json();
}

// Garage may still be starting: its health check passes once the daemon answers, the admin API soon after.
let status;
for (let attempt = 1; ; attempt += 1) {
	try {
		status = await call('GetClusterStatus');
		break;
	} catch (error) {
		if (attempt === 30) fail(`Garage's admin API at ${adminUrl} did not answer: ${error.message}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

const layout = await call('GetClusterLayout');
if (!layout.roles?.length) {
	const node = status.nodes[0];
	// Capacity only weighs nodes against each other; with one node any value works.
	await call('UpdateClusterLayout', {
		body: { roles: [{ id: node.id, zone: 'dc1', capacity: 1_000_000_000, tags: [] }] }
	});
	await call('ApplyClusterLayout', { body: { version: layout.version + 1 } });
	console.log(`storage-init: one-node layout applied (node ${node.id.slice(0, 16)}…)`);
}

let info = await call('GetBucketInfo', { query: { globalAlias: bucket }, allow: [404] });
if (!info) {
	info = await call('CreateBucket', { body: { globalAlias: bucket } });
	console.log(`storage-init: bucket ${bucket} created (private)`);
}

const key = await call('GetKeyInfo', { query: { id: accessKeyId }, allow: [404] });
if (!key) {
	await call('ImportKey', { body: { accessKeyId, secretAccessKey, name: 'atelier-app' } });
	console.log(`storage-init: key ${accessKeyId} imported for the app`);
}

await call('AllowBucketKey', {
	body: { bucketId: info.id, accessKeyId, permissions: { read: true, write: true, owner: false } }
});
console.log(`storage-init: key ${accessKeyId} may read and write ${bucket}, nothing else`);
