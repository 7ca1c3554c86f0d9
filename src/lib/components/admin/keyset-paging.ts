/**
 * A list walked by keys (AdminTable's `keyset` paging): where its first row stands (null: beyond `bound`, never
 * guessed), its total counted up to `bound` (more reads « plus de »), and the links to the pages around it (null at
 * an end). Client-safe.
 */
export interface KeysetPaging {
	first: number | null;
	total: number;
	bound: number;
	newest: string | null;
	newer: string | null;
	older: string | null;
	oldest: string | null;
}
