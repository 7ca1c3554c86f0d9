/** A real S3 HTTP server (s3rver) on loopback, for the s3 driver's tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface RunningS3 {
	endpoint: URL;
	accessKey: string;
	secretKey: string;
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
	return {
		endpoint: new URL(`http://127.0.0.1:${port}`),
		// s3rver's fixed development credentials.
		accessKey: 'S3RVER',
		secretKey: 'S3RVER',
		close: () => server.close()
	};
}
