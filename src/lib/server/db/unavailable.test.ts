import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

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
			'3D000' // the database does not exist
		])
			expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
	});

	it('leaves a query’s own errors to be bugs or the caller’s: constraint, syntax, data', () => {
		for (const code of ['23505', '23503', '42601', '42P01', '22P02', '40001', '55P03', 'EPERM', 'EPIPX'])
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
