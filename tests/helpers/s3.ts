/** A real S3 HTTP server (s3rver) on loopback, for the s3 driver's tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'minio';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface RunningS3 {
	endpoint: URL;
	accessKey: string;
	secretKey: string;
	/** Every key in a bucket, sorted: what a test finds there, read with a client of its own. */
	keys(bucket: string): Promise<string[]>;
	close(): Promise<void>;
}

export async function startS3(): Promise<RunningS3> {
	const server = new S3rver({
		address: '127.0.0.1',
		port: 0,
		silent: true,
		directory: mkdtempSync(path.join(tmpdir(), 'atelier-s3rver-'))
	});
	const { port } = (await server.run()) as { port: number };
	// s3rver's fixed development credentials.
	const credentials = { accessKey: 'S3RVER', secretKey: 'S3RVER' };
	const client = new Client({ endPoint: '127.0.0.1', port, useSSL: false, pathStyle: true, ...credentials });
	return {
		endpoint: new URL(`http://127.0.0.1:${port}`),
		...credentials,
		async keys(bucket) {
			const keys: string[] = [];
			for await (const item of client.listObjectsV2(bucket, '', true) as AsyncIterable<{ name: string }>)
				keys.push(item.name);
			return keys.sort();
		},
		close: () => server.close()
	};
}
