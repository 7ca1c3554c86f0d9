import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, isDiskFull } from './unavailable';

const pgError = (code: string) => Object.assign(new Error(`postgres ${code}`), { code });

describe('isDatabaseUnavailable', () => {
	it('knows PostgreSQL’s outages by class, not only the codes listed one by one', () => {
		for (const code of [
			'08006', // connection failure
			'08P01', // protocol violation: a connection gone wrong
			'53100', // disk full
			'53200', // out of memory
			'53300', // too many connections
			'57P01', // admin shutdown
			'57P03', // cannot connect now (starting, recovering)
			'57014', // a statement cancelled (statement_timeout)
			'58030', // I/O error
			'55000', // database refusing connections for maintenance
			'25006', // read-only transaction: a replica, or a primary demoted by a failover
			'55P03', // a lock not had within lock_timeout: a table held by maintenance (nothing here uses NOWAIT)
			'3D000' // the database does not exist
		])
			expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
	});

	it('leaves a query’s own errors to be bugs or the caller’s: constraint, syntax, data', () => {
		for (const code of ['23505', '23503', '42601', '42P01', '22P02', '40001', 'EPERM', 'EPIPX'])
			expect(isDatabaseUnavailable(pgError(code)), code).toBe(false);
		expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
		expect(isDatabaseUnavailable(null)).toBe(false);
	});

	it('finds a socket’s or the driver’s error under a cause, and PGlite closed', () => {
		expect(isDatabaseUnavailable(new Error('query failed', { cause: pgError('ECONNREFUSED') }))).toBe(true);
		expect(isDatabaseUnavailable(pgError('CONNECTION_ENDED'))).toBe(true);
		expect(isDatabaseUnavailable(new Error('PGlite is closed'))).toBe(true);
	});
});

describe('isDiskFull', () => {
	it('knows a full disk from PostgreSQL (53100, PGlite says it too) and from the file system, under causes', () => {
		expect(isDiskFull(pgError('53100'))).toBe(true);
		expect(isDiskFull(new Error('query failed', { cause: pgError('53100') }))).toBe(true);
		const enospc = Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' });
		expect(isDiskFull(new Error('upload failed', { cause: enospc }))).toBe(true);
		expect(isDatabaseUnavailable(enospc)).toBe(true);
		for (const code of ['53200', '53300', '57014', 'EACCES'])
			expect(isDiskFull(pgError(code)), code).toBe(false);
	});
});
