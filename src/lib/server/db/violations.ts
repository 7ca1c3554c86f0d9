/** PostgreSQL's unique violation (23505), raised by the driver itself or wrapped by Drizzle as the cause. */
export function isUniqueViolation(error: unknown): boolean {
	const e = error as { code?: string; cause?: { code?: string } } | null;
	return e?.code === '23505' || e?.cause?.code === '23505';
}
